import { centsToUsdc } from "@/lib/platform/money";

/** What a payment of the invoice must settle, in USDC atomic units: its locked price less what a gift card paid of it. */
export function amountDueUsdc(inv: { priceUsdc: bigint; giftCardCents: bigint | null }): bigint {
  return inv.priceUsdc - centsToUsdc(inv.giftCardCents ?? 0n);
}

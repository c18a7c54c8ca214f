/** USDC atomic units per US cent. */
export const USDC_PER_CENT = 10_000n;

/** What a payment of the invoice must settle, in USDC atomic units: its locked price less what a gift card paid of it. */
export function amountDueUsdc(inv: { priceUsdc: bigint; giftCardCents: bigint | null }): bigint {
  return inv.priceUsdc - (inv.giftCardCents ?? 0n) * USDC_PER_CENT;
}

import { formatUsdc } from "@/lib/catalog";
import { amountDueUsdc } from "@/lib/checkout/amount-due";
import type { invoices } from "@/lib/platform/db/schema";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { methodCoin, methodNetworkKey } from "@/lib/merchants";
import { paymentStatus } from "@/lib/checkout/merchant-invoice-view";

type InvoiceRow = typeof invoices.$inferSelect;

/** How an invoice was (or is to be) paid, as the dashboard shows it. */
export type InvoicePayment = {
  /** "Balance" or "USDC on Base". */
  method: string;
  priceCents: bigint | null;
  /** What a gift card of the shop paid of the price (US cents), or null. */
  giftCardCents: bigint | null;
  /** The USDC amount of a USDC invoice ("10.30 USDC"): what a gift card did not pay; null for the balance. */
  usdc: string | null;
  /** `payment.status` as the API answers it. */
  status: string;
  paidAt: Date | null;
  /** The settlement's transaction and, where the network has a block explorer, its page. */
  transaction: { hash: string; url: string | null; network: string } | null;
  /** The wallet that paid a USDC invoice. */
  payer: string | null;
  /** The ledger entry that paid a balance invoice. */
  ledgerEntryId: number | null;
};

const KEY_NAMES = { base: "Base", arbitrum: "Arbitrum", polygon: "Polygon", solana: "Solana", ethereum: "Ethereum" } as const;

/**
 * "Balance", or "USDC on Base" (the mode's own name for the network when it is given: "Base Sepolia"); with a gift card
 * of the shop (`gift_card`, or `giftCard` for a code given with another method) "Gift card, the rest …".
 */
export function paymentMethodLabel(method: string | null, networks: readonly PaymentNetwork[] = [], giftCard = false): string {
  const coin = methodCoin(method);
  if (coin?.coin === "ETH") {
    const eth = `Ether on ${networks.find((n) => n.key === coin.key)?.name ?? KEY_NAMES[coin.key]}`;
    return giftCard ? `Gift card, the rest in ${eth}` : eth;
  }
  const key = methodNetworkKey(method) ?? (coin?.coin === "USDC" ? coin.key : undefined);
  if (method === "gift_card" || (giftCard && !key)) return "Gift card, the rest from the balance";
  if (!key) return "Balance";
  const usdc = `USDC on ${networks.find((n) => n.key === key)?.name ?? KEY_NAMES[key]}`;
  return giftCard ? `Gift card, the rest in ${usdc}` : usdc;
}

/** A pure function of the invoice and the mode's networks (for names and explorer links). */
export function describeInvoicePayment(inv: InvoiceRow, networks: readonly PaymentNetwork[], now = new Date()): InvoicePayment {
  const key = methodNetworkKey(inv.paymentMethod);
  const network = key ? networks.find((n) => n.key === key) : undefined;
  const settledOn = inv.paymentNetwork && inv.paymentNetwork !== "balance" ? (networks.find((n) => n.network === inv.paymentNetwork) ?? network) : undefined;
  const ledger = inv.paymentTx?.match(/^ledger:(\d+)$/);
  return {
    method: paymentMethodLabel(inv.paymentMethod, networks, inv.giftCardCents !== null),
    priceCents: inv.priceCents,
    giftCardCents: inv.giftCardCents,
    usdc: key ? formatUsdc(amountDueUsdc(inv)) : null,
    status: paymentStatus(inv, now),
    paidAt: inv.paidAt,
    transaction:
      inv.paymentTx && !ledger && !inv.paymentTx.startsWith("gift_card:")
        ? { hash: inv.paymentTx, url: settledOn?.explorerTx?.(inv.paymentTx) ?? null, network: settledOn?.name ?? inv.paymentNetwork ?? "" }
        : null,
    payer: key ? inv.paymentPayer : null,
    ledgerEntryId: ledger?.[1] ? Number(ledger[1]) : null,
  };
}

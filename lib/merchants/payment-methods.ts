import type { NetworkKey } from "@/lib/platform/networks";

/**
 * Payment methods this shop takes: the balance, a gift card of the shop (`gift_card`, with `gift_card_code`; what it
 * does not cover is paid from the balance), or USDC on one network through x402 (the invoice carries its payment URL and
 * a payment page). A `gift_card_code` goes with any of them: the card pays first, the method the rest. Others named by
 * clients (`bitcoin`, `lightning`, …) get `unsupported_payment_method`.
 */
export const PAYMENT_METHODS = ["balance", "gift_card", "usdc_base", "usdc_arbitrum", "usdc_polygon", "usdc_solana"] as const;
/** Methods whose invoice is paid from the balance (a gift card's first, with `gift_card`: the rest from the balance). */
export const BALANCE_METHODS: readonly string[] = ["balance", "gift_card"];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The network a USDC method pays on (by its key in lib/platform/networks); undefined for the balance. */
export function methodNetworkKey(method: string | null): NetworkKey | undefined {
  const key = method?.startsWith("usdc_") ? method.slice("usdc_".length) : undefined;
  return key === "base" || key === "arbitrum" || key === "polygon" || key === "solana" ? key : undefined;
}

/**
 * Why a method cannot be taken with the networks this shop runs on (a USDC network its mode or configuration does not
 * have), or undefined when it can: an invoice nobody could pay is refused at creation.
 */
export function unavailableMethod(method: PaymentMethod, networks: readonly { key: NetworkKey }[], mode: string): string | undefined {
  const key = methodNetworkKey(method);
  if (!key || networks.some((n) => n.key === key)) return undefined;
  const offered = PAYMENT_METHODS.filter((m) => {
    const k = methodNetworkKey(m);
    return !k || networks.some((n) => n.key === k);
  });
  return `Payment method ${method} is not available on this shop (${mode} mode has no such network). Available: ${offered.join(", ")}.`;
}

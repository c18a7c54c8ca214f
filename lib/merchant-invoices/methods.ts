import { paymentMethod } from "@/lib/api-v2/schemas";
import type { NetworkKey } from "@/lib/payments/networks";

/**
 * Payment methods this shop takes: the balance, or USDC on one network through x402 (the invoice carries its payment
 * URL and a payment page). Others named by clients (`bitcoin`, `lightning`, …) get `unsupported_payment_method`.
 */
export const PAYMENT_METHODS = paymentMethod.options;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The network a USDC method pays on (by its key in lib/payments/networks.ts); undefined for the balance. */
export function methodNetworkKey(method: string | null): NetworkKey | undefined {
  const key = method?.startsWith("usdc_") ? method.slice("usdc_".length) : undefined;
  return key === "base" || key === "arbitrum" || key === "polygon" || key === "solana" ? key : undefined;
}

import { invoicePaymentEffect } from "./payment-effect";
import type { SettlementEffects } from "@/lib/payments";
import { topupPaymentEffect } from "@/lib/merchants";

/**
 * What each kind of x402 payment does once it lands (and undoes when it cannot): the one table the paid routes and
 * the reconciler of pending settlements share. Fees do nothing more: their request was answered when they were paid.
 */
export const settlementEffects: SettlementEffects = {
  invoice: invoicePaymentEffect,
  topup: topupPaymentEffect,
};

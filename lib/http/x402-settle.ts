import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import type { Payments } from "@/lib/payments/payments";

/**
 * The three steps every paid route takes with a decoded payment, each answering instead of throwing: a facilitator
 * that fails is a refused payment (402 with its reason), never a 500.
 */

/** The offered requirement the payment was made for, or undefined. */
export function findMatchingRequirement(payments: Payments, offered: PaymentRequirements[], payload: PaymentPayload): PaymentRequirements | undefined {
  const server = payments.server as unknown as {
    findMatchingRequirements(a: PaymentRequirements[], p: PaymentPayload): PaymentRequirements | undefined;
  };
  return server.findMatchingRequirements(offered, payload);
}

export async function verifyPayment(payments: Payments, payload: PaymentPayload, requirement: PaymentRequirements): Promise<VerifyResponse> {
  return payments.server.verifyPayment(payload, requirement).catch(
    (err: unknown): VerifyResponse => ({ isValid: false, invalidReason: err instanceof Error ? err.message : "verification failed", payer: undefined }) as VerifyResponse,
  );
}

export async function settlePayment(payments: Payments, payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleResponse> {
  try {
    return await payments.server.settlePayment(payload, requirement);
  } catch (err) {
    const e = err as { errorReason?: string; message?: string; transaction?: string; payer?: string };
    return {
      success: false,
      errorReason: e.errorReason ?? e.message ?? "settlement failed",
      transaction: e.transaction ?? "",
      network: requirement.network,
      payer: e.payer,
    } as SettleResponse;
  }
}

/** A settlement failure that names a transaction and says it is pending or timed out may still land on chain. */
export const maybeBroadcast = (s: SettleResponse): boolean => Boolean(s.transaction) && /pending|timeout|timed out/i.test(s.errorReason ?? "");

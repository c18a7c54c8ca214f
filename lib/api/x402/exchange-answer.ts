import { encodePaymentResponseHeader } from "@x402/core/http";
import type { ExchangeResult } from "@/lib/payments";
import { unavailable } from "@/lib/platform/http/unavailable";
import { usdcToDecimal } from "@/lib/platform/money";

/** A new 402 that asks for the payment again, saying why the last one was not taken (and with extra headers). */
export type AskAgain = (reason: string, headers?: Record<string, string>) => Promise<Response>;

/** The outcomes of an exchange that took no money: the payment is asked for again, or the shop is not taking any now. */
export type Unsettled = Extract<ExchangeResult, { kind: "invalid" | "unavailable" | "refused" | "failed" }>;
/** The outcomes that each paid route answers in its own way: settled, sent and pending, or answered before settling. */
export type Settling = Exclude<ExchangeResult, Unsettled>;

export const PAYMENT_USED = "This payment has already been used: sign a new one";
export const PAYMENT_BUSY = "This payment is already being settled for another request: sign a new one";

type Refusal = Extract<ExchangeResult, { kind: "refused" }>["refusal"];

/** Why a payment beyond what its payer can cover was not taken (it would have failed on chain). */
const beyondBalance = (r: Extract<Refusal, { refused: "balance" }>) =>
  `This payment was not taken, nothing was charged: the payer's balance (${usdcToDecimal(r.balance)} USDC) does not cover it beside the payer's payments still being settled (${usdcToDecimal(r.committed)} USDC). Send it again once those have settled, or pay from a funded wallet`;

/** The reason a refused payment is asked for again with. */
const refusalReason = (r: Refusal) => (r.refused === "used" ? PAYMENT_USED : r.refused === "balance" ? beyondBalance(r) : PAYMENT_BUSY);

/**
 * The one answer of every paid route (x402 fees, invoice payments, balance top-ups) to an exchange that took no money:
 * an invalid or used payment, one being settled by another request, one beyond what its payer can cover beside its
 * payments in flight, or one the chain refused is asked for again (`ask`, a 402 with the reason, as x402 answers an
 * invalid payment; a failed settlement carries its PAYMENT-RESPONSE), and a shop that is stopping answers 503
 * SHUTTING_DOWN. A route whose refusals say more (an invoice already paid) answers them in `refused` first.
 * Returns the other outcomes, which the route answers itself.
 */
export async function answerUnsettled(
  result: ExchangeResult,
  ask: AskAgain,
  refused?: (refusal: Refusal) => Promise<Response | void> | Response | void,
): Promise<Response | Settling> {
  switch (result.kind) {
    case "invalid":
      return ask(result.reason);
    case "unavailable":
      throw unavailable();
    case "refused":
      return (await refused?.(result.refusal)) || ask(refusalReason(result.refusal));
    case "failed":
      return ask(`Settlement failed: ${result.reason}`, { "PAYMENT-RESPONSE": encodePaymentResponseHeader(result.settle) });
    default:
      return result;
  }
}

import { answerUnsettled, decodePaymentHeader, paymentHeader, checkX402Limits } from "@/lib/api/x402";
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { z } from "zod";
import { DASHBOARD_COOKIE } from "@/lib/dashboard/cookie";
import { resolveDashboardSession } from "@/lib/dashboard/session";
import { getDb } from "@/lib/platform/db";
import { balanceOf, getTopup, recordTopup, topupAmount, topupIdOf } from "@/lib/merchants";
import { centsToDecimal, centsToUsdc } from "@/lib/platform/money";
import { exchange, findMatchingRequirement, getPayments } from "@/lib/payments";
import { ApiError, invalidParams, jsonResponse } from "@/lib/platform/http/api-error";
import { x402Json } from "@/lib/platform/http/body";
import { isSameOriginPost, publicOrigin } from "@/lib/platform/http/origin";
import { settlementEffects } from "@/lib/checkout";
import { databaseUnavailable } from "@/lib/platform/http/unavailable";
import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { addLogContext, log } from "@/lib/platform/log";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const TOPUP_PATH = "/dashboard/balance/topup";

const Body = z.object({ amount: topupAmount });

const noStore = (extra: Record<string, string> = {}) => ({ "Cache-Control": "no-store", ...extra });

function paymentRequired(paymentRequired: PaymentRequired, extra: Record<string, string> = {}): Response {
  return jsonResponse(paymentRequired, { status: 402, headers: noStore({ "PAYMENT-REQUIRED": encodePaymentRequiredHeader(paymentRequired), ...extra }) });
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

async function readBody(req: Request): Promise<{ amount: bigint }> {
  const json = await x402Json(req, 'The body must be JSON: {"amount": "25.00"}');
  const parsed = Body.safeParse(json);
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  return parsed.data;
}

/**
 * POST /dashboard/balance/topup: the signed-in merchant tops up its balance in USDC through x402. The amount (USD)
 * is in the body; without a payment the answer is a 402 offering that amount in USDC on every network of the mode.
 * The paid retry goes through the one x402 exchange (lib/payments/exchange.ts): the payment is recorded before it is
 * settled, so a replay of it credits nothing, and the settled payment credits the balance once. A settlement whose
 * outcome is not known yet is shown as a pending top-up and credited if the chain confirms it. Same-origin POSTs with
 * a dashboard session only.
 */
export const topUpBalance = guardedRoute(async (req: Request): Promise<Response> => {
  try {
    if (!isSameOriginPost(req.headers)) throw new ApiError(403, "FORBIDDEN", "Top-ups are made from the dashboard's own pages.");
    const db = await getDb();
    const signedIn = await resolveDashboardSession(db, cookieValue(req, DASHBOARD_COOKIE));
    if (!signedIn) throw new ApiError(401, "UNAUTHORIZED", "Sign in to the dashboard again to top up.");
    const merchantId = signedIn.merchant.id;
    addLogContext({ merchant_id: merchantId });
    await checkX402Limits(req);
    const { amount } = await readBody(req);

    const payments = await getPayments();
    const requirements = await payments.requirements(centsToUsdc(amount));
    const resource = {
      url: publicOrigin(req) + TOPUP_PATH,
      description: `Top up the balance of ${signedIn.merchant.name} by ${centsToDecimal(amount)} USD`,
      mimeType: "application/json",
    };
    const required = (reason: string) => payments.server.createPaymentRequiredResponse(requirements, resource, reason);
    const header = paymentHeader(req);
    if (!header) return paymentRequired(await required("Payment required"));

    const payload = decodePaymentHeader(header, requirements);
    const match = findMatchingRequirement(payments, requirements, payload);
    if (!match)
      return paymentRequired(await required(`No matching payment requirements: pay exactly ${centsToDecimal(amount)} USDC on one of the offered networks`));
    const exchanged = await exchange({
      db,
      payments,
      payload,
      requirement: match,
      purpose: "topup",
      reference: merchantId,
      details: { amountCents: amount.toString() },
      effects: settlementEffects,
    });
    const result = await answerUnsettled(exchanged, async (why, headers) => paymentRequired(await required(why), headers));
    if (result instanceof Response) return result;
    if (result.kind === "cancelled") throw new Error("unreachable: top-ups have no handler before settlement");
    const topupId = topupIdOf(result.settlement?.id ?? "");
    if (result.kind === "pending" && result.settlement) {
      // Shown on the balance page as pending until the chain decides (the reconciler credits or fails it).
      await recordTopup(
        db,
        {
          id: topupId,
          merchantId,
          amountCents: amount,
          network: match.network,
          transaction: result.settle.transaction || topupId,
          payer: result.settlement.payer ?? undefined,
        },
        { settled: false, holdMs: Math.max(0, result.settlement.validUntil.getTime() - Date.now()) },
      );
    }
    const topup = await getTopup(db, topupId);
    if (!topup) throw new Error(`top-up ${topupId} of settled payment was not recorded`);
    const settled = result.settle;
    return jsonResponse(
      {
        topup_id: topup.id,
        status: topup.status,
        amount: centsToDecimal(topup.amountCents),
        currency: "USD",
        balance: centsToDecimal(await balanceOf(db, merchantId)),
        network: topup.network,
        transaction: topup.transaction,
      },
      { headers: noStore({ "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled) }) },
    );
  } catch (err) {
    if (err instanceof ApiError) return err.toResponse(noStore());
    if (isDatabaseUnavailable(err)) return databaseUnavailable().toResponse(noStore());
    log.error({ err }, "dashboard top-up failed");
    return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. Try again.").toResponse(noStore());
  }
});

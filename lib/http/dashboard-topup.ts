import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { z } from "zod";
import { DASHBOARD_COOKIE, resolveDashboardSession } from "@/lib/dashboard";
import { getDb } from "@/lib/db";
import { balanceOf, formatCents } from "@/lib/merchants";
import { getPayments, MAX_TIMEOUT_SECONDS } from "@/lib/payments/payments";
import { centsToUsdc, recordTopup, topupAmount } from "@/lib/topups";
import { ApiError, invalidParams, jsonResponse } from "./api-error";
import { isSameOriginPost, publicOrigin } from "./origin";
import { decodePaymentHeader, paymentHeader } from "./payment-header";
import { checkX402Limits } from "./x402-limits";
import { findMatchingRequirement, maybeBroadcast, settlePayment, verifyPayment } from "./x402-settle";

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
  let json: unknown;
  try {
    json = await req.clone().json();
  } catch {
    throw new ApiError(400, "INVALID_JSON", 'The body must be JSON: {"amount": "25.00"}');
  }
  const parsed = Body.safeParse(json);
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  return parsed.data;
}

/**
 * POST /dashboard/balance/topup: the signed-in merchant tops up its balance in USDC through x402. The amount (USD)
 * is in the body; without a payment the answer is a 402 offering that amount in USDC on every network of the mode.
 * The paid retry is verified and settled, and the settled transaction credits the balance once (a replay of the same
 * payment finds its top-up and credits nothing). A settlement that timed out after broadcast is held as pending and
 * credited if the chain confirms it. Same-origin POSTs with a dashboard session only.
 */
export async function topUpBalance(req: Request): Promise<Response> {
  try {
    if (!isSameOriginPost(req.headers)) throw new ApiError(403, "FORBIDDEN", "Top-ups are made from the dashboard's own pages.");
    const db = await getDb();
    const signedIn = await resolveDashboardSession(db, cookieValue(req, DASHBOARD_COOKIE));
    if (!signedIn) throw new ApiError(401, "UNAUTHORIZED", "Sign in to the dashboard again to top up.");
    const merchantId = signedIn.merchant.id;
    await checkX402Limits(req);
    const { amount } = await readBody(req);

    const payments = await getPayments();
    const requirements = await payments.requirements(centsToUsdc(amount));
    const resource = {
      url: publicOrigin(req) + TOPUP_PATH,
      description: `Top up the balance of ${signedIn.merchant.name} by ${formatCents(amount)} USD`,
      mimeType: "application/json",
    };
    const required = (reason: string) => payments.server.createPaymentRequiredResponse(requirements, resource, reason);
    const header = paymentHeader(req);
    if (!header) return paymentRequired(await required("Payment required"));

    const payload = decodePaymentHeader(header, requirements);
    const match = findMatchingRequirement(payments, requirements, payload);
    if (!match) return paymentRequired(await required(`No matching payment requirements: pay exactly ${formatCents(amount)} USDC on one of the offered networks`));
    const verified = await verifyPayment(payments, payload, match);
    if (!verified.isValid) return paymentRequired(await required(verified.invalidReason ?? "invalid payment"));

    const settled = await settlePayment(payments, payload, match);
    const payment = { merchantId, amountCents: amount, network: match.network, transaction: settled.transaction, payer: settled.payer ?? verified.payer };
    if (!settled.success) {
      if (maybeBroadcast(settled)) await recordTopup(db, payment, { settled: false, holdMs: (MAX_TIMEOUT_SECONDS + 60) * 1000 });
      return paymentRequired(await required(`Settlement failed: ${settled.errorReason ?? "unknown reason"}`), { "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled) });
    }
    const { topup } = await recordTopup(db, payment, { settled: true }).catch((err: unknown) => {
      // The USDC moved: the operator needs the transaction to credit it by hand if the database stays down.
      console.error(`[dashboard] top-up of ${merchantId} settled in ${payment.network} ${payment.transaction} but was not recorded`, err);
      throw new ApiError(503, "TOPUP_NOT_RECORDED", `Your payment settled (${payment.transaction}) but the balance could not be credited yet. Keep this transaction; support will credit it.`);
    });
    return jsonResponse(
      {
        topup_id: topup.id,
        status: topup.status,
        amount: formatCents(topup.amountCents),
        currency: "USD",
        balance: formatCents(await balanceOf(db, merchantId)),
        network: topup.network,
        transaction: topup.transaction,
      },
      { headers: noStore({ "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled) }) },
    );
  } catch (err) {
    if (err instanceof ApiError) return err.toResponse(noStore());
    console.error("[dashboard] top-up failed", err);
    return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. Try again.").toResponse(noStore());
  }
}

import {
  discoveryExtensions,
  answerPayer,
  earlierAnswer,
  keepAnswer,
  paidAnswerKey,
  nextStep,
  checkX402Limits,
  decodePaymentHeader,
  paymentHeader,
  errorResponse,
  paymentRequiredResponse,
  x402Headers,
  answerUnsettled,
} from "@/lib/api/x402";
import { encodePaymentResponseHeader } from "@x402/core/http";
import { usdcToDecimal } from "@/lib/platform/money";
import { getDb } from "@/lib/platform/db";
import { getInvoice, payability } from "@/lib/checkout/payment";
import { invoiceClaim } from "@/lib/checkout/payment-effect";
import { isInvoiceId } from "@/lib/platform/ids";
import { isAddressOnlyMethod, isEtherMethod, methodNetworkKey } from "@/lib/merchants";
import { exchange, findMatchingRequirement, getPayments } from "@/lib/payments";
import { ApiError, jsonResponse } from "@/lib/platform/http/api-error";
import { x402Json } from "@/lib/platform/http/body";
import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { addLogContext } from "@/lib/platform/log";
import { settlementEffects } from "@/lib/checkout/settlement-effects";
import { amountDueUsdc } from "@/lib/checkout/amount-due";

const REFUSALS = {
  not_found: () => new ApiError(404, "INVOICE_NOT_FOUND", "No invoice has this id."),
  expired: () => new ApiError(404, "INVOICE_EXPIRED", "This invoice has expired: create a new one from the same cart."),
  not_payable: (status?: string) =>
    new ApiError(
      409,
      "INVOICE_NOT_PAYABLE",
      `This invoice is ${status ?? "not payable"}: poll GET /x402/invoice/status instead of paying again.`,
      status ? { status } : {},
    ),
  busy: () => new ApiError(409, "PAYMENT_IN_PROGRESS", "Another payment of this invoice is being settled: poll GET /x402/invoice/status."),
};

async function readInvoiceId(req: Request): Promise<string> {
  const json = await x402Json(req, 'The body must be JSON: {"invoice_id": "inv_..."}');
  const id = typeof json === "object" && json !== null && "invoice_id" in json ? json.invoice_id : undefined;
  if (typeof id !== "string" || id.trim() === "") throw new ApiError(400, "MISSING_FIELD", "invoice_id is required", { field: "invoice_id" });
  return id.trim();
}

/**
 * POST /x402/invoice/pay: 402 with the invoice's locked price on every network; the paid retry is verified, the
 * invoice claimed (one payment at a time), settled, and marked paid in one conditional update. A session token never
 * pays an invoice.
 */
export const payInvoice = guardedRoute(async (req: Request, kick?: () => void): Promise<Response> => {
  try {
    await checkX402Limits(req);
    // A payment with an identifier that paid this invoice before gets that answer again (the invoice is paid by now).
    const answerKey = paidAnswerKey(req, "invoicePay");
    const earlier = answerKey && (await earlierAnswer(answerKey, x402Headers));
    if (earlier) return earlier;
    const id = await readInvoiceId(req);
    addLogContext({ invoice_id: isInvoiceId(id) ? id : undefined });
    const origin = publicOrigin(req);
    const db = await getDb();
    const inv = isInvoiceId(id) ? await getInvoice(db, id) : undefined;
    const refused = payability(inv);
    if (refused) throw REFUSALS[refused](inv?.status);
    const invoice = inv!;

    const payments = await getPayments();
    // Its locked price less what a gift card paid (set aside when it was created).
    const due = amountDueUsdc(invoice);
    let requirements = await payments.requirements(due);
    if (invoice.merchantId || invoice.paymentMethod) {
      // A merchant API invoice, or a shopper's that named a method, is paid the way it was created: from the balance
      // (never here), or on its one network.
      const key = methodNetworkKey(invoice.paymentMethod);
      if (!key) {
        throw new ApiError(
          409,
          "INVOICE_NOT_PAYABLE",
          isEtherMethod(invoice.paymentMethod)
            ? "This invoice is paid in ether, by a transfer to its own address (payment.address), not with USDC."
            : isAddressOnlyMethod(invoice.paymentMethod)
              ? "This invoice is paid by a USDC transfer to its own address (payment.address) on Ethereum, not through x402."
              : "This invoice is paid from the merchant's balance, not with USDC.",
        );
      }
      const network = payments.networks.find((n) => n.key === key)?.network;
      requirements = requirements.filter((r) => r.network === network);
    }
    const resource = {
      url: `${origin}/x402/invoice/pay`,
      description: `Invoice ${invoice.id}: ${usdcToDecimal(due)} USDC`,
      mimeType: "application/json",
    };
    const required = (error: string) => payments.server.createPaymentRequiredResponse(requirements, resource, error, discoveryExtensions("invoicePay"));
    const header = paymentHeader(req);
    if (!header) return paymentRequiredResponse(await required("Payment required"));

    const payload = decodePaymentHeader(header, requirements);
    if (!requirements.some((r) => r.network === payload.accepted.network && r.scheme === payload.accepted.scheme)) {
      throw new ApiError(400, "UNSUPPORTED_NETWORK", `Pay with the exact scheme on one of: ${requirements.map((r) => r.network).join(", ")}`);
    }
    const match = findMatchingRequirement(payments, requirements, payload);
    if (!match) return paymentRequiredResponse(await required(`No matching payment requirements: pay exactly ${usdcToDecimal(due)} USDC to the offered payTo`));

    const exchanged = await exchange({
      db,
      payments,
      payload,
      requirement: match,
      purpose: "invoice",
      reference: invoice.id,
      claim: invoiceClaim(invoice.id),
      effects: settlementEffects,
    });
    const result = await answerUnsettled(
      exchanged,
      async (why, headers) => paymentRequiredResponse(await required(why), headers),
      async (r) => {
        if (r.refused === "claim") throw REFUSALS[r.reason as keyof typeof REFUSALS]((await getInvoice(db, invoice.id))?.status);
        // A payment beyond its payer's funds is an invalid payment (a 402 with the reason), as a used one is.
        if (r.refused === "in_progress") throw REFUSALS.busy();
      },
    );
    if (result instanceof Response) return result;
    switch (result.kind) {
      case "cancelled":
        throw new Error("unreachable: invoice payments have no handler before settlement");
      case "pending":
        throw new ApiError(
          409,
          "PAYMENT_PENDING",
          `Your payment was sent${result.settle.transaction ? ` (${result.settle.transaction})` : ""} and is waiting for the chain. Do not pay again: poll GET /x402/invoice/status; the invoice is paid as soon as it lands, or payable again if it cannot.`,
          { transaction: result.settle.transaction || null, network: match.network },
          { "PAYMENT-RESPONSE": encodePaymentResponseHeader(result.settle) },
        );
    }
    const settled = result.settle;
    kick?.();
    const paid = jsonResponse(
      {
        accepted: true,
        invoice_id: invoice.id,
        message: `Payment of ${usdcToDecimal(due)} USDC settled on ${settled.network}. Your order is being fulfilled: poll the status route.`,
        transaction: settled.transaction,
        network: settled.network,
        next_step: nextStep(origin, "GET", `/x402/invoice/status?invoice_id=${invoice.id}`),
      },
      { headers: x402Headers({ "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled) }) },
    );
    // Kept under the payer the payment was recorded as (the one it verified as).
    return await keepAnswer(answerKey, answerPayer(settled.network, result.settlement.payer ?? settled.payer), paid);
  } catch (err) {
    return errorResponse(err);
  }
});

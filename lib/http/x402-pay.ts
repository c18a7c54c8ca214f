import { encodePaymentResponseHeader } from "@x402/core/http";
import { usdcToDecimal } from "@/lib/catalog";
import { getDb } from "@/lib/db";
import { claimForPayment, getInvoice, isInvoiceId, markPaid, payability, recordPendingSettlement, releaseClaim } from "@/lib/invoices";
import { methodNetworkKey } from "@/lib/merchant-invoices/methods";
import { getPayments, MAX_TIMEOUT_SECONDS } from "@/lib/payments/payments";
import { ApiError, jsonResponse } from "./api-error";
import { nextStep } from "./next-step";
import { publicOrigin } from "./origin";
import { checkX402Limits } from "./x402-limits";
import { decodePaymentHeader, paymentHeader } from "./payment-header";
import { errorResponse, paymentRequiredResponse, x402Headers } from "./with-x402-fee";
import { findMatchingRequirement, maybeBroadcast, settlePayment, verifyPayment } from "./x402-settle";

const REFUSALS = {
  not_found: () => new ApiError(404, "INVOICE_NOT_FOUND", "No invoice has this id."),
  expired: () => new ApiError(404, "INVOICE_EXPIRED", "This invoice has expired: create a new one from the same cart."),
  not_payable: (status?: string) =>
    new ApiError(409, "INVOICE_NOT_PAYABLE", `This invoice is ${status ?? "not payable"}: poll GET /x402/invoice/status instead of paying again.`, status ? { status } : {}),
  busy: () => new ApiError(409, "PAYMENT_IN_PROGRESS", "Another payment of this invoice is being settled: poll GET /x402/invoice/status."),
};

async function readInvoiceId(req: Request): Promise<string> {
  let json: unknown;
  try {
    json = await req.clone().json();
  } catch {
    throw new ApiError(400, "INVALID_JSON", 'The body must be JSON: {"invoice_id": "inv_..."}');
  }
  const id = typeof json === "object" && json !== null && "invoice_id" in json ? json.invoice_id : undefined;
  if (typeof id !== "string" || id.trim() === "") throw new ApiError(400, "MISSING_FIELD", "invoice_id is required", { field: "invoice_id" });
  return id.trim();
}

/**
 * POST /x402/invoice/pay: 402 with the invoice's locked price on every network; the paid retry is verified, the
 * invoice claimed (one payment at a time), settled, and marked paid in one conditional update. A session token never
 * pays an invoice.
 */
export async function payInvoice(req: Request, kick?: () => void): Promise<Response> {
  try {
    await checkX402Limits(req);
    const id = await readInvoiceId(req);
    const origin = publicOrigin(req);
    const db = await getDb();
    const inv = isInvoiceId(id) ? await getInvoice(db, id) : undefined;
    const refused = payability(inv);
    if (refused) throw REFUSALS[refused](inv?.status);
    const invoice = inv!;

    const payments = await getPayments();
    let requirements = await payments.requirements(invoice.priceUsdc);
    if (invoice.merchantId) {
      // A merchant API invoice is paid the way it was created: from the balance (never here), or on its one network.
      const key = methodNetworkKey(invoice.paymentMethod);
      if (!key) throw new ApiError(409, "INVOICE_NOT_PAYABLE", "This invoice is paid from the merchant's balance, not with USDC.");
      const network = payments.networks.find((n) => n.key === key)?.network;
      requirements = requirements.filter((r) => r.network === network);
    }
    const resource = {
      url: `${origin}/x402/invoice/pay`,
      description: `Invoice ${invoice.id}: ${usdcToDecimal(invoice.priceUsdc)} USDC`,
      mimeType: "application/json",
    };
    const required = (error: string) => payments.server.createPaymentRequiredResponse(requirements, resource, error);
    const header = paymentHeader(req);
    if (!header) return paymentRequiredResponse(await required("Payment required"));

    const payload = decodePaymentHeader(header, requirements);
    if (!requirements.some((r) => r.network === payload.accepted.network && r.scheme === payload.accepted.scheme)) {
      throw new ApiError(400, "UNSUPPORTED_NETWORK", `Pay with the exact scheme on one of: ${requirements.map((r) => r.network).join(", ")}`);
    }
    const match = findMatchingRequirement(payments, requirements, payload);
    if (!match) return paymentRequiredResponse(await required(`No matching payment requirements: pay exactly ${usdcToDecimal(invoice.priceUsdc)} USDC to the offered payTo`));
    const verified = await verifyPayment(payments, payload, match);
    if (!verified.isValid) return paymentRequiredResponse(await required(verified.invalidReason ?? "invalid payment"));

    const claimed = await claimForPayment(db, invoice.id);
    if ("refused" in claimed) throw REFUSALS[claimed.refused]((await getInvoice(db, invoice.id))?.status);

    const settled = await settlePayment(payments, payload, match);
    if (!settled.success) {
      if (maybeBroadcast(settled)) {
        // It may still land: hold the invoice until the chain tells (see reconcilePendingPayments).
        await recordPendingSettlement(db, invoice.id, claimed.claim, { network: match.network, transaction: settled.transaction, payer: settled.payer ?? verified.payer }, (MAX_TIMEOUT_SECONDS + 60) * 1000);
      } else {
        await releaseClaim(db, invoice.id, claimed.claim);
      }
      return paymentRequiredResponse(await required(`Settlement failed: ${settled.errorReason ?? "unknown reason"}`), {
        "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled),
      });
    }
    const recorded = await markPaid(db, invoice.id, claimed.claim, { network: settled.network, transaction: settled.transaction, payer: settled.payer ?? verified.payer });
    if (!recorded) console.error(`[x402] settled ${settled.transaction} for ${invoice.id} but lost its claim`);
    kick?.();
    return jsonResponse(
      {
        accepted: true,
        invoice_id: invoice.id,
        message: `Payment of ${usdcToDecimal(invoice.priceUsdc)} USDC settled on ${settled.network}. Your order is being fulfilled: poll the status route.`,
        transaction: settled.transaction,
        network: settled.network,
        next_step: nextStep(origin, "GET", `/x402/invoice/status?invoice_id=${invoice.id}`),
      },
      { headers: x402Headers({ "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled) }) },
    );
  } catch (err) {
    return errorResponse(err);
  }
}

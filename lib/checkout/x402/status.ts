import { usdcToDecimal, centsToUsdc } from "@/lib/platform/money";
import { getDb } from "@/lib/platform/db";
import { getStatus, type InvoiceView, type Viewer } from "@/lib/checkout/view";
import { isInvoiceId } from "@/lib/platform/ids";
import { ApiError } from "@/lib/platform/http/api-error";
import { nextStep } from "@/lib/api/x402";
import { amountDueUsdc } from "@/lib/checkout/amount-due";
import { shopperAddressPayment } from "@/lib/checkout/address-payment";

export function requireInvoiceId(url: URL): string {
  const id = url.searchParams.get("invoice_id")?.trim();
  if (!id) throw new ApiError(400, "MISSING_FIELD", "invoice_id is required: GET /x402/invoice/status?invoice_id=inv_...", { field: "invoice_id" });
  return id;
}

function body({ invoice, orders, status, canSeeCodes }: InvoiceView, origin: string, byAddress: Record<string, unknown> | undefined) {
  const redemption = canSeeCodes
    ? orders
        .filter((o) => o.status === "delivered" && o.redemption)
        .map((o) => ({ order_id: o.id, product_id: o.productId, package_value: o.packageValue, ...(o.redemption as Record<string, unknown>) }))
    : undefined;
  return {
    invoice_id: invoice.id,
    status,
    delivery_status: invoice.deliveryStatus,
    // Why a complete invoice is not fully delivered (an unpaid one's error code is no fulfilment's: its status tells).
    ...(invoice.errorCode && status === "complete" ? { error_code: invoice.errorCode } : {}),
    price_usdc: usdcToDecimal(invoice.priceUsdc),
    ...(invoice.giftCardCents !== null ? { gift_card_usdc: usdcToDecimal(centsToUsdc(invoice.giftCardCents)) } : {}),
    amount_due_usdc: usdcToDecimal(amountDueUsdc(invoice)),
    created_at: invoice.createdAt.toISOString(),
    expires_at: invoice.expiresAt.toISOString(),
    paid_at: invoice.paidAt?.toISOString() ?? null,
    completed_at: invoice.completedAt?.toISOString() ?? null,
    // Paid by address: the transfer to make and what arrived (the shop's own address for the invoice), else the settlement.
    payment: byAddress ?? (invoice.paymentTx ? { network: invoice.paymentNetwork, transaction: invoice.paymentTx, payer: invoice.paymentPayer } : null),
    orders: orders.map((o) => ({
      order_id: o.id,
      product_id: o.productId,
      name: o.productName,
      package_value: o.packageValue,
      currency: o.currency,
      price_usdc: usdcToDecimal(o.priceUsdc),
      status: o.status,
      ...(o.errorCode ? { error_code: o.errorCode } : {}),
      delivered_at: o.deliveredAt?.toISOString() ?? null,
      ...(o.refundUsdc !== null ? { refund: { amount_usdc: usdcToDecimal(o.refundUsdc), transaction: o.refundTx } } : {}),
      codes_available: o.status === "delivered" && o.redemption !== null,
    })),
    ...(redemption ? { redemption_info: redemption } : {}),
    ...(status === "unpaid" ? { next_step: nextStep(origin, "POST", "/x402/invoice/pay", { invoice_id: invoice.id }) } : {}),
    ...(status === "paid" || status === "fulfilling" ? { next_step: nextStep(origin, "GET", `/x402/invoice/status?invoice_id=${invoice.id}`) } : {}),
  };
}

/**
 * GET /x402/invoice/status. Anyone who pays the fee sees the status; the paying wallet (SIWX or token) also sees the
 * codes once the invoice is complete; another proven wallet gets 403.
 */
export async function invoiceStatusResponse(url: URL, origin: string, viewer: Viewer) {
  const id = requireInvoiceId(url);
  const view = isInvoiceId(id) ? await getStatus(await getDb(), id, viewer) : undefined;
  if (!view) throw new ApiError(404, "INVOICE_NOT_FOUND", "No invoice has this id.");
  if (view === "not_the_payer") throw new ApiError(403, "NOT_THE_PAYER", "This wallet did not pay this invoice.");
  const byAddress = view.invoice.paymentMethod ? await shopperAddressPayment(await getDb(), view.invoice) : undefined;
  return body(view, origin, byAddress);
}

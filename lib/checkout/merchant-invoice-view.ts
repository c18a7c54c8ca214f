import type { invoices, orders } from "@/lib/platform/db/schema";
import type { Redemption } from "@/lib/fulfilment";
import { DENIED_REASONS } from "@/lib/api/merchant";
import { effectiveOrder, effectiveStatus, type StatusFields } from "@/lib/checkout/effective-status";

type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** The spec's final invoice statuses: a client polls until one of these. */
export const FINAL_STATUSES = ["complete", "denied", "payment_error"] as const;

/**
 * An invoice's status as merchant clients read it. Every state ends in one of the three final statuses, so a client
 * polling for a final status stops (the definitions: lib/checkout/effective-status.ts):
 * - `complete`: paid, and every order final (delivered, or failed and refunded);
 * - `denied`: refused before payment, with `status_reason`: `expired` (not paid in time, no payment accepted for it),
 *   or the refusal's code (`balance_too_low`: an `auto_pay` the balance could not cover);
 * - `payment_error`: a payment accepted for it failed for good, and it can no longer be paid.
 */
export function merchantStatus(inv: StatusFields, now = new Date()): string {
  const status = effectiveStatus(inv, now);
  if (status === "expired") return "denied";
  if (status === "paid" || status === "fulfilling") return "processing";
  return status;
}

/**
 * `payment.status`: clients poll it while it is `unpaid`, `processing` or `payment_confirmed`, so it moves on to
 * `paid`, `expired`, `denied` or `payment_error` once the invoice is final.
 */
export function paymentStatus(inv: StatusFields, now = new Date()): string {
  const status = effectiveStatus(inv, now);
  if (status === "paid" || status === "fulfilling") return "payment_confirmed";
  if (status === "complete") return "paid";
  return status;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const cents = (v: bigint | null | undefined) => Number(v ?? 0n);

/** An order as merchant clients read it; `redemption_info` only where asked (GET /orders/{id}). */
export function merchantOrder(o: OrderRow, opts: { image?: string; redemption?: boolean } = {}) {
  const redemption = o.redemption as Redemption | null;
  return {
    id: o.id,
    status: o.status,
    product: { id: o.productId, name: o.productName, value: o.packageValue, currency: o.currency, ...(opts.image ? { image: opts.image } : {}) },
    invoice: { id: o.invoiceId },
    price: cents(o.priceCents),
    currency: "USD",
    created_time: o.createdAt.toISOString(),
    delivered_time: iso(o.deliveredAt),
    ...(o.recipient ? { recipient: o.recipient } : {}),
    ...(o.status === "failed" || o.status === "refunded" ? { error: o.lastError ?? o.errorCode ?? "The order could not be delivered." } : {}),
    ...(o.status === "refunded" && o.refundCents !== null ? { refund: { amount: cents(o.refundCents), currency: "USD" } } : {}),
    ...(opts.redemption && o.status === "delivered" && redemption ? { redemption_info: redemptionInfo(redemption) } : {}),
  };
}

/** The clients' `redemption_info`: codes, PIN, link, eSIM activation as a QR value, and anything else as extra fields. */
export function redemptionInfo(r: Redemption) {
  return {
    ...(r.code ? { code: r.code } : {}),
    ...(r.pin ? { pin: r.pin } : {}),
    ...(r.link ? { link: r.link } : {}),
    ...(r.instructions ? { instructions: r.instructions } : {}),
    ...(r.other ? { other: r.other } : {}),
    ...(r.expiration_date ? { expiration_date: r.expiration_date } : {}),
    extra_fields: { ...r.extra_fields, ...(r.iccid ? { iccid: r.iccid } : {}) },
    ...(r.barcode_format ? { barcode_format: r.barcode_format } : {}),
    ...(r.barcode_value ? { barcode_value: r.barcode_value } : {}),
  };
}

/** The full invoice object: what GET /invoices/{id} answers and what the webhook delivers. */
export function merchantInvoice(inv: InvoiceRow, items: OrderRow[], now = new Date(), paymentExtra: Record<string, unknown> = {}) {
  const status = merchantStatus(inv, now);
  const stored = inv.status === "denied" ? DENIED_REASONS.find((r) => r === inv.errorCode) : undefined;
  // Ended by its time (expired, or payment_error once its time was up), before the sweep recorded when (or swept before
  // it did): final since its expiry.
  const endedByTime = inv.status === "expired" || (inv.status === "unpaid" && (status === "denied" || status === "payment_error"));
  return {
    id: inv.id,
    status,
    ...(status === "denied" ? { status_reason: stored ?? "expired" } : {}),
    created_time: inv.createdAt.toISOString(),
    completed_time: iso(inv.completedAt ?? (endedByTime ? inv.expiresAt : null)),
    expires_time: inv.expiresAt.toISOString(),
    webhook_url: inv.webhookUrl,
    payment: {
      method: inv.paymentMethod,
      currency: "USD",
      price: cents(inv.priceCents),
      commission: 0,
      status: paymentStatus(inv, now),
      paid_time: iso(inv.paidAt),
      // A USDC payment's settlement: its network and transaction.
      ...(inv.paymentNetwork && inv.paymentNetwork !== "balance" && inv.paymentNetwork !== "gift_card"
        ? { network: inv.paymentNetwork, transaction: inv.paymentTx }
        : {}),
      ...(inv.giftCardCents !== null ? { gift_card: cents(inv.giftCardCents) } : {}),
      ...paymentExtra,
    },
    orders: items.map((o) => merchantOrder(effectiveOrder(o, inv, now))),
  };
}

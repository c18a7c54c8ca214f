/**
 * What a webhook message announces. Invoices: one type per final status, named after it, so a receiver (or the
 * delivery log) can tell the event without opening the payload; the payload itself is the invoice object, unwrapped,
 * as existing clients of the merchant API expect. `test` is a message the merchant sent to try a URL.
 */
export const INVOICE_EVENT_TYPES = ["invoice.complete", "invoice.denied", "invoice.payment_error"] as const;
export type InvoiceEventType = (typeof INVOICE_EVENT_TYPES)[number];
export type WebhookEventType = InvoiceEventType | "test";

export type FinalInvoiceStatus = "complete" | "denied" | "payment_error";

/** The event type of an invoice that reached `status`. */
export function invoiceEventType(status: FinalInvoiceStatus): InvoiceEventType {
  return `invoice.${status}`;
}

import { eq } from "drizzle-orm";
import { invoices } from "@/lib/platform/db/schema";
import { invoiceOrders } from "@/lib/checkout/status";
import type { DbOrTx } from "@/lib/platform/db";
import { enqueueWebhook, invoiceEventType, type FinalInvoiceStatus } from "@/lib/webhooks";
import { FINAL_STATUSES, merchantStatus } from "@/lib/checkout/merchant-invoice-view";
import { invoiceObject } from "@/lib/checkout/merchant-invoice-object";

/**
 * When a merchant invoice with a `webhook_url` has just become final (complete, denied, payment_error),
 * writes its webhook message to the outbox, in the caller's transaction (the one that made it final): the message
 * exists exactly when the final state does. The payload is the invoice object as `GET /invoices/{id}` shows it (one
 * serializer: lib/checkout/merchant-invoice-object.ts).
 * Returns whether a message was written; call `kickWebhookWorker()` after the commit when it was.
 */
export async function announceFinalInvoice(tx: DbOrTx, invoiceId: string, now = new Date()): Promise<boolean> {
  const [inv] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!inv?.merchantId || !inv.webhookUrl) return false;
  const status = merchantStatus(inv, now);
  if (!(FINAL_STATUSES as readonly string[]).includes(status)) return false;
  const items = await invoiceOrders(tx, invoiceId);
  await enqueueWebhook(
    tx,
    {
      merchantId: inv.merchantId,
      invoiceId,
      url: inv.webhookUrl,
      eventType: invoiceEventType(status as FinalInvoiceStatus),
      payload: await invoiceObject(tx, inv, items, { now }),
      eventAt: inv.completedAt ?? now,
    },
    now,
  );
  return true;
}

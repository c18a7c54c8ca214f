import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { emit } from "@/lib/platform/events";
import { rollUp, type RollUp } from "./roll-up";

/**
 * Writes a paid invoice's status, delivery status, error code and completion time from its orders, in the caller's
 * transaction (the listener of `invoice.orders-ended`, lib/wiring.ts). The invoice row is locked while its orders are
 * read, so two workers finishing the last two orders cannot leave it half rolled up. Invoices that are not being
 * fulfilled (unpaid, expired, already complete, …) are left alone: `next` is null. `after`: the work to start once the
 * transaction has committed (a webhook worker to kick, when the invoice completed).
 */
export async function rollUpInvoice(tx: DbOrTx, invoiceId: string, now = new Date()): Promise<{ next: RollUp | null; after: (() => void)[] }> {
  const [invoice] = await tx
    .select({ status: invoices.status, deliveryStatus: invoices.deliveryStatus, errorCode: invoices.errorCode })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .for("update");
  if (!invoice || (invoice.status !== "paid" && invoice.status !== "fulfilling")) return { next: null, after: [] };
  const next = rollUp(await tx.select({ status: orders.status }).from(orders).where(eq(orders.invoiceId, invoiceId)));
  const unchanged = next.status === invoice.status && next.deliveryStatus === invoice.deliveryStatus && next.errorCode === invoice.errorCode;
  if (unchanged) return { next, after: [] };
  await tx
    .update(invoices)
    .set({
      status: next.status,
      deliveryStatus: next.deliveryStatus,
      errorCode: next.errorCode,
      completedAt: next.status === "complete" ? now : null,
      updatedAt: now,
    })
    .where(eq(invoices.id, invoiceId));
  // Announced here, in the completion's transaction: what reacts to it (a merchant's webhook) exists iff it does.
  return { next, after: next.status === "complete" ? await emit(tx, "invoice.final", { invoiceId, now }) : [] };
}

import { and, eq, inArray, notExists, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { emit, runAfterCommit } from "@/lib/platform/events";
import { rollUp, type RollUp } from "./roll-up";

/**
 * Writes a paid invoice's status, delivery status, error code and completion time from its orders. The invoice row is
 * locked while its orders are read, so two workers finishing the last two orders cannot leave it half rolled up.
 * Invoices that are not being fulfilled (unpaid, expired, already complete, …) are left alone: returns null.
 */
export async function rollUpInvoice(db: Db, invoiceId: string, now = new Date()): Promise<RollUp | null> {
  let after: (() => void)[] = [];
  const result = await db.transaction(async (tx) => {
    const [invoice] = await tx
      .select({ status: invoices.status, deliveryStatus: invoices.deliveryStatus, errorCode: invoices.errorCode })
      .from(invoices)
      .where(eq(invoices.id, invoiceId))
      .for("update");
    if (!invoice || (invoice.status !== "paid" && invoice.status !== "fulfilling")) return null;
    const next = rollUp(await tx.select({ status: orders.status }).from(orders).where(eq(orders.invoiceId, invoiceId)));
    const unchanged = next.status === invoice.status && next.deliveryStatus === invoice.deliveryStatus && next.errorCode === invoice.errorCode;
    if (!unchanged) {
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
      if (next.status === "complete") after = await emit(tx, "invoice.final", { invoiceId, now });
    }
    return next;
  });
  runAfterCommit(after);
  return result;
}

/**
 * Rolls up paid invoices none of whose orders is still open: a worker that died between an order's outcome and its
 * roll-up leaves such an invoice behind, and nothing else would ever finish it. Returns how many were completed.
 */
export async function rollUpFinishedInvoices(db: Db, opts: { limit?: number; now?: Date } = {}): Promise<number> {
  const stale = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        inArray(invoices.status, ["paid", "fulfilling"]),
        notExists(
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(and(eq(orders.invoiceId, invoices.id), inArray(orders.status, ["created", "processing"]))),
        ),
      ),
    )
    .limit(opts.limit ?? 100);
  let completed = 0;
  for (const { id } of stale) if ((await rollUpInvoice(db, id, opts.now))?.status === "complete") completed++;
  return completed;
}

import { and, eq, inArray, notExists, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { emit, runAfterCommit } from "@/lib/platform/events";

/**
 * Announces, in a transaction of its own, that an invoice's orders may all have ended (one of them just was delivered
 * or failed for good): the invoice's status follows from its orders, which lib/checkout writes (its roll-up listens to
 * `invoice.orders-ended`, lib/wiring.ts).
 */
export async function announceOrdersEnded(db: Db, invoiceId: string, now: Date): Promise<void> {
  const after = await db.transaction((tx) => emit(tx, "invoice.orders-ended", { invoiceId, now }));
  runAfterCommit(after);
}

/**
 * Announces again the paid invoices none of whose orders is still open: a worker that died between an order's outcome
 * and its announcement leaves such an invoice behind, and nothing else would ever finish it. Returns how many of them
 * are complete afterwards.
 */
export async function announceFinishedInvoices(db: Db, opts: { limit?: number; now?: Date } = {}): Promise<number> {
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
  if (stale.length === 0) return 0;
  const ids = stale.map((s) => s.id);
  for (const id of ids) await announceOrdersEnded(db, id, opts.now ?? new Date());
  const complete = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(inArray(invoices.id, ids), eq(invoices.status, "complete")));
  return complete.length;
}

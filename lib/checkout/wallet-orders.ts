import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { effectiveOrder } from "./effective-status";

export type WalletOrder = {
  order: typeof orders.$inferSelect;
  invoice: Pick<typeof invoices.$inferSelect, "id" | "status" | "createdAt" | "paidAt" | "expiresAt" | "paymentClaim" | "errorCode">;
};

/** The orders of invoices a wallet paid (or is about to pay), newest first, each as it reads now, with the total for paging. */
export async function listWalletOrders(
  db: Db,
  payerKey: string,
  page: { start: number; limit: number },
  now = new Date(),
): Promise<{ total: number; items: WalletOrder[] }> {
  const where = and(eq(invoices.payer, payerKey), sql`${invoices.status} <> 'expired'`);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .innerJoin(invoices, eq(orders.invoiceId, invoices.id))
    .where(where);
  const rows = await db
    .select({
      order: orders,
      invoice: {
        id: invoices.id,
        status: invoices.status,
        createdAt: invoices.createdAt,
        paidAt: invoices.paidAt,
        expiresAt: invoices.expiresAt,
        paymentClaim: invoices.paymentClaim,
        errorCode: invoices.errorCode,
      },
    })
    .from(orders)
    .innerJoin(invoices, eq(orders.invoiceId, invoices.id))
    .where(where)
    .orderBy(desc(invoices.createdAt), orders.position)
    .limit(page.limit)
    .offset(page.start);
  return { total: count?.n ?? 0, items: rows.map((r) => ({ ...r, order: effectiveOrder(r.order, r.invoice, now) })) };
}

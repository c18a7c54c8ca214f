import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import type { InvoiceRow } from "./payment";

export type OrderRow = typeof orders.$inferSelect;

export type InvoiceWithOrders = { invoice: InvoiceRow; orders: OrderRow[] };

/** An invoice's orders, in the cart's order. */
export function invoiceOrders(db: DbOrTx, invoiceId: string): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.invoiceId, invoiceId)).orderBy(asc(orders.position));
}

/**
 * An invoice and its orders, or undefined; with `merchantId`, only that merchant's invoice. Who may see redemption
 * info is the caller's decision.
 */
export async function getInvoiceWithOrders(db: DbOrTx, id: string, scope: { merchantId?: string } = {}): Promise<InvoiceWithOrders | undefined> {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), scope.merchantId === undefined ? undefined : eq(invoices.merchantId, scope.merchantId)));
  if (!invoice) return undefined;
  return { invoice, orders: await invoiceOrders(db, id) };
}

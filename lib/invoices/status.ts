import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { orders } from "@/lib/db/schema";
import { getInvoice, type InvoiceRow } from "./payment";

export type OrderRow = typeof orders.$inferSelect;

export type InvoiceWithOrders = { invoice: InvoiceRow; orders: OrderRow[] };

/** An invoice and its orders, or undefined. Who may see redemption info is the caller's decision. */
export async function getInvoiceWithOrders(db: Db, id: string): Promise<InvoiceWithOrders | undefined> {
  const invoice = await getInvoice(db, id);
  if (!invoice) return undefined;
  const rows = await db.select().from(orders).where(eq(orders.invoiceId, id)).orderBy(asc(orders.position));
  return { invoice, orders: rows };
}

import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { invoices, orders } from "@/lib/db/schema";
import { refund } from "./ledger";

/**
 * Gives a failed order of a balance-paid merchant invoice its price back on the balance, and marks it `refunded`
 * with the amount, inside the caller's transaction (the one that records the failure). Other orders are left alone:
 * returns false. Refunding twice is impossible (one ledger refund per order).
 */
export async function refundOrderToBalance(tx: Db, orderId: string, now = new Date()): Promise<boolean> {
  const [row] = await tx
    .select({ merchantId: invoices.merchantId, invoiceId: invoices.id, priceCents: orders.priceCents })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(and(eq(orders.id, orderId), eq(orders.status, "failed"), eq(invoices.paymentNetwork, "balance"), isNotNull(invoices.merchantId)));
  if (!row?.merchantId) return false;
  const amount = row.priceCents ?? 0n;
  await refund(tx, { merchantId: row.merchantId, amountCents: amount, invoiceId: row.invoiceId, orderId, note: `Refund of order ${orderId}` });
  await tx.update(orders).set({ status: "refunded", refundCents: amount, updatedAt: now }).where(eq(orders.id, orderId));
  return true;
}

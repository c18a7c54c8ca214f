import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { refundOrderToCards } from "@/lib/gift-cards";
import type { Db } from "@/lib/platform/db";
import { invoices, orders, paymentAddresses } from "@/lib/platform/db/schema";
import { refund } from "./ledger";

/**
 * Gives a failed order of a merchant invoice paid from the balance (or by a gift card), or by a plain transfer to its
 * own address (whose sender the shop does not know: an exchange's hot wallet would swallow a refund), its price back, and marks it
 * `refunded` with the amount, inside the caller's transaction (the one that records the failure): to the gift card
 * that paid the invoice first, as far as it paid, the rest to the balance. Other orders are left alone: returns false.
 * Refunding twice is impossible (one ledger refund per order; the order is `failed` only once).
 */
export async function refundOrderToBalance(tx: Db, orderId: string, now = new Date()): Promise<boolean> {
  const [row] = await tx
    .select({ merchantId: invoices.merchantId, invoiceId: invoices.id, priceCents: orders.priceCents })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, "failed"),
        or(
          inArray(invoices.paymentNetwork, ["balance", "gift_card"]),
          sql`EXISTS (SELECT 1 FROM ${paymentAddresses} WHERE ${paymentAddresses.invoiceId} = ${invoices.id} AND ${paymentAddresses.applied} > 0)`,
        ),
        isNotNull(invoices.merchantId),
      ),
    );
  if (!row?.merchantId) return false;
  const amount = row.priceCents ?? 0n;
  const toCard = await refundOrderToCards(tx, orderId);
  if (amount - toCard > 0n) {
    await refund(tx, { merchantId: row.merchantId, amountCents: amount - toCard, invoiceId: row.invoiceId, orderId, note: `Refund of order ${orderId}` });
  }
  await tx.update(orders).set({ status: "refunded", refundCents: amount, updatedAt: now }).where(eq(orders.id, orderId));
  return true;
}

import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, ledgerEntries, orders } from "@/lib/platform/db/schema";
import type { Redemption } from "@/lib/fulfilment";
import { effectiveOrder, getMerchantOrder, merchantStatus, paymentMethodLabel } from "@/lib/checkout";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { centsToDecimal } from "@/lib/platform/money";

type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;
type LedgerRow = typeof ledgerEntries.$inferSelect;

/** One step of an order's life: what happened, when (null: still ahead), and a line about it. */
export type TimelineStep = { label: string; at: Date | null; detail?: string; tone: "done" | "bad" | "waiting" };

export type OrderDetail = { order: OrderRow; invoice: InvoiceRow; refund: LedgerRow | null; timeline: TimelineStep[] };

/** "Paid from your balance.", or how else, with the network's name as every other page gives it ("USDC on Base (devnet)"). */
const paidWords = (inv: InvoiceRow, networks: readonly PaymentNetwork[]) =>
  inv.paymentMethod === "balance" || !inv.paymentMethod
    ? "Paid from your balance."
    : `Paid: ${paymentMethodLabel(inv.paymentMethod, networks, inv.giftCardCents !== null)}.`;

/**
 * What happened to an order, in order: placed, paid, then delivered or failed (and refunded). Steps still ahead are
 * listed without a time, so the merchant sees where it stands. A pure function of the rows: the page and tests share it.
 */
export function orderTimeline(
  order: OrderRow,
  invoice: InvoiceRow,
  refund: LedgerRow | null,
  now = new Date(),
  networks: readonly PaymentNetwork[] = [],
): TimelineStep[] {
  const steps: TimelineStep[] = [{ label: "Ordered", at: order.createdAt, detail: `On invoice ${invoice.id}.`, tone: "done" }];
  const invoiceStatus = merchantStatus(invoice, now);
  if (invoice.paidAt) {
    steps.push({ label: "Paid", at: invoice.paidAt, detail: paidWords(invoice, networks), tone: "done" });
  } else if (invoiceStatus === "denied" || invoiceStatus === "payment_error") {
    steps.push({
      label: "Not paid",
      at: invoice.updatedAt,
      detail:
        invoiceStatus === "denied" ? "The invoice expired or was refused before payment: nothing was charged." : "The payment failed: nothing was charged.",
      tone: "bad",
    });
    return steps;
  } else {
    steps.push({
      label: "Waiting for payment",
      at: null,
      detail: `The invoice expires ${invoice.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC.`,
      tone: "waiting",
    });
  }

  const error = order.lastError ?? order.errorCode ?? "The supplier could not deliver it.";
  switch (order.status) {
    case "delivered":
      steps.push({ label: "Delivered", at: order.deliveredAt ?? order.updatedAt, detail: "The redemption details are ready.", tone: "done" });
      break;
    case "failed":
      steps.push({ label: "Failed", at: order.updatedAt, detail: error, tone: "bad" });
      if (order.refundUsdc !== null)
        steps.push(
          order.refundTx
            ? { label: "Refunded", at: order.updatedAt, detail: `Paid back on chain: ${order.refundTx}.`, tone: "done" }
            : { label: "Refund due", at: null, detail: "The refund is being paid back to the paying wallet.", tone: "waiting" },
        );
      break;
    case "refunded":
      steps.push({ label: "Failed", at: refund?.createdAt ?? order.updatedAt, detail: error, tone: "bad" });
      steps.push({
        label: "Refunded",
        at: refund?.createdAt ?? order.updatedAt,
        detail: refund
          ? `${centsToDecimal(refund.amountCents)} USD back to your balance.`
          : order.refundTx
            ? `Paid back on chain: ${order.refundTx}.`
            : "Refunded.",
        tone: "done",
      });
      break;
    default:
      if (invoice.paidAt)
        steps.push({ label: "Being delivered", at: null, detail: "The supplier is working on it; this usually takes seconds.", tone: "waiting" });
  }
  return steps;
}

/**
 * One of the merchant's orders with its invoice, its refund to the balance (if any) and its timeline; null if not the
 * merchant's. `networks` (the mode's) name the network it was paid on.
 */
export async function getMerchantOrderDetail(
  db: Db,
  merchantId: string,
  id: string,
  now = new Date(),
  networks: readonly PaymentNetwork[] = [],
): Promise<OrderDetail | null> {
  const [row] = await db
    .select({ order: orders, invoice: invoices })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(and(eq(orders.id, id), eq(invoices.merchantId, merchantId)));
  if (!row) return null;
  const [refund] = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, id), eq(ledgerEntries.kind, "refund"), eq(ledgerEntries.merchantId, merchantId)));
  const order = effectiveOrder(row.order, row.invoice, now);
  return { order, invoice: row.invoice, refund: refund ?? null, timeline: orderTimeline(order, row.invoice, refund ?? null, now, networks) };
}

/** A delivered order's codes, as the shop's redemption card shows them; null before delivery or for another merchant's order. */
export async function getMerchantRedemption(
  db: Db,
  merchantId: string,
  id: string,
): Promise<(Redemption & { order_id: string; product_id: string; package_value: string }) | null> {
  const order = await getMerchantOrder(db, merchantId, id);
  if (!order || order.status !== "delivered" || !order.redemption) return null;
  return { ...(order.redemption as Redemption), order_id: order.id, product_id: order.productId, package_value: order.packageValue };
}

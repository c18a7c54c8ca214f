import { and, desc, eq, gte, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders, webhookDeliveries } from "@/lib/platform/db/schema";

const DAY_MS = 86_400_000;

/** Midnight UTC of the day `now` falls in. */
export const startOfUtcDay = (now: Date) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);

export type SalesFigure = { cents: bigint; orders: number };
export type DailySales = { day: string; cents: bigint; orders: number };

export type MerchantOverview = {
  /** Sales of today (UTC), the last 7 and the last 30 days, today included: paid orders, less their refunds. */
  today: SalesFigure;
  week: SalesFigure;
  month: SalesFigure;
  /** One entry per UTC day of the last 30, oldest first, days without sales included. */
  daily: DailySales[];
  /** Every order of the merchant by status. */
  ordersByStatus: Record<"created" | "processing" | "delivered" | "failed" | "refunded", number>;
};

/**
 * What the merchant sold: the orders of its invoices paid in each window (by the invoice's payment time), priced in
 * US cents, less what was refunded. Days are UTC days. Two queries, whatever the number of orders.
 */
export async function merchantOverview(db: Db, merchantId: string, now = new Date()): Promise<MerchantOverview> {
  const today = startOfUtcDay(now);
  const first = new Date(today.getTime() - 29 * DAY_MS);
  const day = sql<string>`to_char(date_trunc('day', ${invoices.paidAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  const [rows, statuses] = await Promise.all([
    db
      .select({
        day,
        cents: sql<string>`coalesce(sum(coalesce(${orders.priceCents}, 0) - coalesce(${orders.refundCents}, 0)), 0)`,
        orders: sql<number>`count(*) FILTER (WHERE ${orders.status} <> 'refunded')`,
      })
      .from(orders)
      .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
      .where(
        and(
          eq(invoices.merchantId, merchantId),
          isNotNull(invoices.paidAt),
          gte(invoices.paidAt, first),
          lt(invoices.paidAt, new Date(today.getTime() + DAY_MS)),
        ),
      )
      .groupBy(day),
    db
      .select({ status: orders.status, n: sql<number>`count(*)` })
      .from(orders)
      .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
      .where(eq(invoices.merchantId, merchantId))
      .groupBy(orders.status),
  ]);

  const byDay = new Map(rows.map((r) => [r.day, { cents: BigInt(r.cents), orders: Number(r.orders) }]));
  const daily: DailySales[] = Array.from({ length: 30 }, (_, i) => {
    const key = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return { day: key, ...(byDay.get(key) ?? { cents: 0n, orders: 0 }) };
  });
  const sum = (days: DailySales[]): SalesFigure => ({ cents: days.reduce((s, d) => s + d.cents, 0n), orders: days.reduce((s, d) => s + d.orders, 0) });
  const ordersByStatus = { created: 0, processing: 0, delivered: 0, failed: 0, refunded: 0 };
  for (const s of statuses) ordersByStatus[s.status] = Number(s.n);
  return { today: sum(daily.slice(-1)), week: sum(daily.slice(-7)), month: sum(daily), daily, ordersByStatus };
}

export type Attention =
  | { kind: "order"; id: string; invoiceId: string; productName: string; status: "failed" | "refunded"; error: string | null; at: Date }
  | {
      kind: "webhook";
      id: string;
      invoiceId: string | null;
      url: string;
      status: "pending" | "failed";
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      at: Date;
    };

/**
 * The latest things that need the merchant's eye, newest first: paid orders that failed (refunded or not) and webhook
 * messages that failed for good or are being retried after a failed attempt.
 */
export async function needsAttention(db: Db, merchantId: string, limit = 5): Promise<Attention[]> {
  const [failedOrders, failingHooks] = await Promise.all([
    db
      .select({
        id: orders.id,
        invoiceId: orders.invoiceId,
        productName: orders.productName,
        status: orders.status,
        error: orders.lastError,
        at: orders.updatedAt,
      })
      .from(orders)
      .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
      // Orders that failed after payment (those of an invoice that ended unpaid charged nothing: its status tells).
      .where(and(eq(invoices.merchantId, merchantId), inArray(orders.status, ["failed", "refunded"]), isNotNull(invoices.paidAt)))
      .orderBy(desc(orders.updatedAt))
      .limit(limit),
    db
      .select({
        id: webhookDeliveries.id,
        invoiceId: webhookDeliveries.invoiceId,
        url: webhookDeliveries.url,
        status: webhookDeliveries.status,
        attempts: webhookDeliveries.attempts,
        lastStatusCode: webhookDeliveries.lastStatusCode,
        lastError: webhookDeliveries.lastError,
        at: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.merchantId, merchantId),
          or(eq(webhookDeliveries.status, "failed"), and(eq(webhookDeliveries.status, "pending"), sql`${webhookDeliveries.attempts} > 0`)),
        ),
      )
      .orderBy(desc(webhookDeliveries.createdAt))
      .limit(limit),
  ]);
  const items: Attention[] = [
    ...failedOrders.map((o) => ({
      kind: "order" as const,
      id: o.id,
      invoiceId: o.invoiceId,
      productName: o.productName,
      status: o.status as "failed" | "refunded",
      error: o.error,
      at: o.at,
    })),
    ...failingHooks.map((w) => ({ kind: "webhook" as const, ...w, status: w.status as "pending" | "failed" })),
  ];
  return items.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
}

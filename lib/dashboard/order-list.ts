import { and, asc, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import { likeEscape } from "@/lib/platform/db/like";
import { searchParamValues } from "@/lib/platform/http/search-params";
import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { invoices, orderStatus, orders } from "@/lib/platform/db/schema";

type OrderRow = typeof orders.$inferSelect;
export type ListedOrder = OrderRow & { paymentMethod: string | null };

export const ORDER_STATUSES = orderStatus.enumValues;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const SORT_COLUMNS = { created: orders.createdAt, price: orders.priceCents, product: orders.productName, status: orders.status } as const;
export type OrderSort = keyof typeof SORT_COLUMNS;
export const ORDER_SORTS = Object.keys(SORT_COLUMNS) as OrderSort[];

export const ORDERS_PAGE_SIZE = 25;
const DAY_MS = 86_400_000;

/** A calendar day, `YYYY-MM-DD`, that really exists (no 31 February). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s));

/**
 * The orders table's query, as the page's URL carries it. The form only sends valid values; a hand-made URL with a
 * wrong one loses that filter (and the page says so) rather than failing.
 */
export const orderListQuery = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  sort: z
    .enum(ORDER_SORTS as [OrderSort, ...OrderSort[]])
    .default("created")
    .catch("created"),
  dir: z.enum(["asc", "desc"]).default("desc").catch("desc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

/** Reads the query from a page's search params: repeated parameters take their first value, empty ones are absent. */
export function parseOrderListQuery(params: Record<string, string | string[] | undefined>): { query: OrderListQuery; ignored: string[] } {
  const raw = searchParamValues(params);
  // The filter form's one sort menu sends `order=price:asc`; the column headers send `sort` and `dir`.
  if (raw.order !== undefined) {
    const [sort, dir] = raw.order.split(":");
    if (raw.sort === undefined && sort) raw.sort = sort;
    if (raw.dir === undefined && dir) raw.dir = dir;
  }
  const query = orderListQuery.parse(raw);
  const ignored: string[] = (["status", "from", "to", "sort", "dir", "page"] as const).filter((k) => raw[k] !== undefined && String(query[k]) !== raw[k]);
  if (raw.q !== undefined && query.q === undefined) ignored.push("q");
  return { query, ignored };
}

function conditions(merchantId: string, q: Omit<OrderListQuery, "sort" | "dir" | "page">): SQL[] {
  const where: SQL[] = [eq(invoices.merchantId, merchantId)];
  if (q.q) {
    const text = q.q;
    // An order or invoice id matches from its start (ids are long), a product by any part of its name or slug.
    where.push(
      or(
        ilike(orders.id, `${likeEscape(text)}%`),
        ilike(orders.invoiceId, `${likeEscape(text)}%`),
        ilike(orders.productName, `%${likeEscape(text)}%`),
        ilike(orders.productId, `%${likeEscape(text)}%`),
      )!,
    );
  }
  if (q.status) where.push(eq(orders.status, q.status));
  // Days are UTC days, as the dashboard shows dates; `to` includes its whole day.
  if (q.from) where.push(gte(orders.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) where.push(lt(orders.createdAt, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS)));
  return where;
}

/**
 * The merchant's orders that match the query, a page at a time, with the total that match. Ties in the sorted column
 * fall back to the order id (time-ordered), so paging never repeats or skips a row.
 */
export async function searchMerchantOrders(
  db: Db,
  merchantId: string,
  query: OrderListQuery,
  pageSize = ORDERS_PAGE_SIZE,
): Promise<{ rows: ListedOrder[]; total: number; pages: number }> {
  const order = query.dir === "asc" ? asc : desc;
  const rows = await db
    .select({ order: orders, paymentMethod: invoices.paymentMethod, total: sql<number>`(count(*) OVER ())::int` })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(and(...conditions(merchantId, query)))
    .orderBy(order(SORT_COLUMNS[query.sort]), order(orders.id))
    .limit(pageSize)
    .offset((query.page - 1) * pageSize);
  let total = rows[0]?.total ?? 0;
  // A page past the end has no row to carry the count: count on its own.
  if (rows.length === 0 && query.page > 1) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
      .where(and(...conditions(merchantId, query)));
    total = counted?.n ?? 0;
  }
  return { rows: rows.map((r) => ({ ...r.order, paymentMethod: r.paymentMethod })), total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/**
 * Every matching order in the query's sort, a batch at a time (for the CSV export): memory stays flat however many
 * orders the merchant has. Keyset paging on (sorted column, id) would be faster on huge exports; offsets keep one code
 * path with the table and are fine at a few thousand rows per batch.
 */
export async function* allMerchantOrders(db: Db, merchantId: string, query: OrderListQuery, batch = 1000): AsyncGenerator<ListedOrder[]> {
  for (let page = 1; ; page++) {
    const { rows } = await searchMerchantOrders(db, merchantId, { ...query, page }, batch);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}

/** The query as URL parameters, defaults left out: for links that keep the table's filters (paging, sorting, export). */
export function orderListParams(query: Partial<OrderListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  if (query.sort && query.sort !== "created") params.set("sort", query.sort);
  if (query.dir && query.dir !== "desc") params.set("dir", query.dir);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  return params;
}

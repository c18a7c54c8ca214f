import { and, desc, eq, gt, ilike, inArray, isNotNull, isNull, lte, not, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { PAYMENT_FAILED } from "@/lib/checkout/effective-status";
import { likeEscape } from "@/lib/platform/db/like";
import { searchParamValues } from "@/lib/platform/http/search-params";

type InvoiceRow = typeof invoices.$inferSelect;
export type ListedInvoice = InvoiceRow & { orderCount: number; productNames: string[] };

/** The statuses merchant clients read (`merchantStatus`), in the order an invoice goes through them. */
export const INVOICE_LIST_STATUSES = ["unpaid", "processing", "complete", "denied", "payment_error"] as const;
export type InvoiceListStatus = (typeof INVOICE_LIST_STATUSES)[number];

export const INVOICES_PAGE_SIZE = 25;

export const invoiceListQuery = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  status: z.enum(INVOICE_LIST_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

/** Reads the query from a page's search params. */
export function parseInvoiceListQuery(params: Record<string, string | string[] | undefined>): InvoiceListQuery {
  return invoiceListQuery.parse(searchParamValues(params));
}

/**
 * The stored statuses behind each status a merchant sees (effectiveStatus, in SQL). An unpaid invoice past its expiry
 * that no payment holds reads `denied` (or `payment_error`, when a payment accepted for it failed) before the expiry
 * sweep has marked it, so time decides between them.
 */
function statusCondition(status: InvoiceListStatus, now: Date): SQL {
  const ended = and(eq(invoices.status, "unpaid"), lte(invoices.expiresAt, now), isNull(invoices.paymentClaim));
  const paymentFailed = sql`${invoices.errorCode} IS NOT DISTINCT FROM ${PAYMENT_FAILED}`;
  switch (status) {
    case "unpaid":
      return and(eq(invoices.status, "unpaid"), or(gt(invoices.expiresAt, now), isNotNull(invoices.paymentClaim)))!;
    case "processing":
      return inArray(invoices.status, ["paid", "fulfilling"]);
    case "denied":
      return or(inArray(invoices.status, ["expired", "denied"]), and(ended, not(paymentFailed)))!;
    case "payment_error":
      return or(eq(invoices.status, "payment_error"), and(ended, paymentFailed))!;
    default:
      return eq(invoices.status, status);
  }
}

/** The merchant's invoices, newest first, a page at a time, each with its number of orders and their products. */
export async function searchMerchantInvoices(
  db: Db,
  merchantId: string,
  query: InvoiceListQuery,
  now = new Date(),
  pageSize = INVOICES_PAGE_SIZE,
): Promise<{ rows: ListedInvoice[]; total: number; pages: number }> {
  const where: SQL[] = [eq(invoices.merchantId, merchantId)];
  if (query.status) where.push(statusCondition(query.status, now));
  if (query.q) {
    // An invoice id from its start, or any of its orders' products.
    const text = likeEscape(query.q);
    where.push(
      or(
        ilike(invoices.id, `${text}%`),
        sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.invoiceId} = ${invoices.id} AND (${orders.productName} ILIKE ${`%${text}%`} OR ${orders.productId} ILIKE ${`%${text}%`} OR ${orders.id} ILIKE ${`${text}%`}))`,
      )!,
    );
  }
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(and(...where))
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(and(...where)),
  ]);
  const total = Number(counted?.n ?? 0);
  const items =
    rows.length === 0
      ? []
      : await db
          .select({ invoiceId: orders.invoiceId, productName: orders.productName })
          .from(orders)
          .where(
            inArray(
              orders.invoiceId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(orders.invoiceId, orders.position);
  return {
    rows: rows.map((r) => {
      const mine = items.filter((i) => i.invoiceId === r.id);
      return { ...r, orderCount: mine.length, productNames: [...new Set(mine.map((i) => i.productName))] };
    }),
    total,
    pages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/** The query as URL parameters, defaults left out. */
export function invoiceListParams(query: Partial<InvoiceListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  return params;
}

import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { effectiveOrder } from "@/lib/checkout/effective-status";
import { getInvoiceWithOrders, type InvoiceWithOrders } from "@/lib/checkout/status";
import { listWalletEsims, type WalletEsim } from "@/lib/checkout/wallet-esims";

type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

export async function getMerchantInvoice(db: Db, merchantId: string, id: string): Promise<InvoiceWithOrders | null> {
  return (await getInvoiceWithOrders(db, id, { merchantId })) ?? null;
}

/**
 * The merchant's invoices, newest first, by cursor: `after` an id gives the older ones that follow it, `before` an id
 * the newer ones that precede it (still newest first). Ids are time-ordered (ULID), so the cursor is the id itself.
 */
export async function listMerchantInvoices(
  db: Db,
  merchantId: string,
  page: { limit: number; start?: number; after?: string; before?: string },
): Promise<{ invoice: InvoiceRow; orders: OrderRow[] }[]> {
  const filters = [eq(invoices.merchantId, merchantId)];
  if (page.after) filters.push(lt(invoices.id, page.after));
  if (page.before) filters.push(gt(invoices.id, page.before));
  // Paging backwards reads upwards from the cursor, then turns the page round.
  const rows = await db
    .select()
    .from(invoices)
    .where(and(...filters))
    .orderBy(page.before && !page.after ? asc(invoices.id) : desc(invoices.id))
    .limit(page.limit)
    .offset(page.start ?? 0);
  if (page.before && !page.after) rows.reverse();
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(orders)
    .where(sql`${orders.invoiceId} IN ${rows.map((r) => r.id)}`)
    .orderBy(asc(orders.position));
  return rows.map((invoice) => ({ invoice, orders: items.filter((o) => o.invoiceId === invoice.id) }));
}

/** What an order's reading needs of its invoice (effectiveOrder). */
const invoiceState = { status: invoices.status, expiresAt: invoices.expiresAt, paymentClaim: invoices.paymentClaim, errorCode: invoices.errorCode };

/** The merchant's orders, newest first, paged by offset, each as it reads now (effectiveOrder). */
export async function listMerchantOrders(
  db: Db,
  merchantId: string,
  page: { start: number; limit: number },
  now = new Date(),
): Promise<{ rows: OrderRow[]; total: number }> {
  const rows = await db
    .select({ order: orders, invoice: invoiceState, total: sql<number>`(count(*) OVER ())::int` })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(eq(invoices.merchantId, merchantId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(page.limit)
    .offset(page.start);
  return { rows: rows.map((r) => effectiveOrder(r.order, r.invoice, now)), total: rows[0]?.total ?? 0 };
}

/** One of the merchant's orders, as it reads now (effectiveOrder). */
export async function getMerchantOrder(db: Db, merchantId: string, id: string, now = new Date()): Promise<OrderRow | null> {
  const [row] = await db
    .select({ order: orders, invoice: invoiceState })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(and(eq(orders.id, id), eq(invoices.merchantId, merchantId)));
  return row ? effectiveOrder(row.order, row.invoice, now) : null;
}

/** The eSIMs the merchant bought, each with its bundles (the first, and top-ups naming its ICCID). */
export function listMerchantEsims(db: Db, merchantId: string): Promise<WalletEsim[]> {
  return listWalletEsims(db, `merchant:${merchantId}`);
}

/** One of the merchant's eSIMs by its ICCID, with its bundles; null when it bought none with that ICCID. */
export async function getMerchantEsim(db: Db, merchantId: string, iccid: string): Promise<WalletEsim | null> {
  const [esim] = await listWalletEsims(db, `merchant:${merchantId}`, { iccid });
  return esim ?? null;
}

/** An eSIM as merchant clients read it: ICCID, activation (LPA, also as the QR value), and its bundles. */
export function merchantEsim(e: WalletEsim, now = new Date()) {
  const active = (b: WalletEsim["bundles"][number]) => !b.expiresAt || b.expiresAt > now;
  return {
    id: e.iccid,
    iccid: e.iccid,
    product: { id: e.productId, name: e.productName },
    order: { id: e.orderId },
    invoice: { id: e.invoiceId },
    lpa: e.lpa,
    barcode_format: "QRCODE",
    barcode_value: e.lpa,
    bundles: e.bundles.map((b) => ({
      order_id: b.orderId,
      value: b.value,
      data_mb: b.dataMb,
      validity_days: b.validityDays,
      activated_time: b.activatedAt?.toISOString() ?? null,
      expires_time: b.expiresAt?.toISOString() ?? null,
      active: active(b),
    })),
  };
}

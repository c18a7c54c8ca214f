// The bodies of the operator routes under /api/admin that `npm run admin` calls while a shop server holds the
// embedded database: what the routes accept and answer, and how the CLI reads the answers back into the domain's
// own types (so that it prints the same thing whichever way it went).
import { z } from "zod";
import type { ImportReport } from "@/lib/catalog";
import type { RefundDue } from "@/lib/fulfilment";
import { stockCodeSchema, type StockImportReport, type StockLevel } from "@/lib/catalog";

/** Catalog and stock files can be long: their routes read up to this much (the other admin routes 64 KiB). */
export const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

/** `error_code` of a stock import the domain refuses (unknown product or package, not a gift card). */
export const STOCK_REFUSED = "stock_refused";
/** `error_code` of a refund that cannot be recorded (no such invoice, nothing due, a transfer in flight, a bad tx). */
export const REFUND_REFUSED = "refund_refused";

const count = z.number().int().nonnegative();
const slug = z.string().trim().min(1).max(200);

/** An error answer of the admin API. */
export const adminErrorWire = z.object({ error_code: z.string(), message: z.string() });

// POST /api/admin/catalog/import: the rows of a catalog file, as parsed by the CLI; validated by importCatalog.
export const catalogImportRequest = z.strictObject({ rows: z.array(z.unknown()).max(100_000) });

export const importReportWire: z.ZodType<ImportReport> = z.object({
  imported: count,
  rejected: z.array(z.object({ row: z.number().int(), slug: z.string().optional(), errors: z.array(z.string()) })),
  total: count,
});

// POST /api/admin/stock/import
export const stockImportRequest = z.strictObject({
  product_id: slug,
  package_value: slug,
  batch: z.string().trim().min(1).max(300),
  codes: z.array(stockCodeSchema).max(500_000),
});

export const toStockImportWire = (r: StockImportReport) => ({
  product_id: r.productId,
  package_value: r.packageValue,
  imported: r.imported,
  already_stocked: r.alreadyStocked,
});

export const stockImportReportWire = z
  .object({ product_id: z.string(), package_value: z.string(), imported: count, already_stocked: count })
  .transform((r): StockImportReport => ({ productId: r.product_id, packageValue: r.package_value, imported: r.imported, alreadyStocked: r.already_stocked }));

// GET /api/admin/stock/levels[?product_id=SLUG]
export const stockLevelsQuery = z.strictObject({ product_id: slug.optional() });

export const toStockLevelsWire = (levels: StockLevel[]) => ({
  levels: levels.map((l) => ({
    product_id: l.productId,
    product_name: l.productName,
    package_value: l.packageValue,
    available: l.available,
    reserved: l.reserved,
    sold: l.sold,
  })),
});

export const stockLevelsWire = z
  .object({
    levels: z.array(z.object({ product_id: z.string(), product_name: z.string(), package_value: z.string(), available: count, reserved: count, sold: count })),
  })
  .transform(({ levels }): StockLevel[] =>
    levels.map((l) => ({
      productId: l.product_id,
      productName: l.product_name,
      packageValue: l.package_value,
      available: l.available,
      reserved: l.reserved,
      sold: l.sold,
    })),
  );

// GET /api/admin/refunds: the refunds due; amounts in USDC atomic units as decimal strings.
export const toRefundsWire = (due: RefundDue[]) => ({
  refunds: due.map((r) => ({
    invoice_id: r.invoiceId,
    payer: r.payer,
    network: r.network,
    payment_payer: r.paymentPayer,
    orders: r.orders,
    amount_usdc: r.amountUsdc.toString(),
    since: r.since.toISOString(),
    last_error: r.lastError,
  })),
});

export const refundsWire = z
  .object({
    refunds: z.array(
      z.object({
        invoice_id: z.string(),
        payer: z.string(),
        network: z.string().nullable(),
        payment_payer: z.string().nullable(),
        orders: count,
        amount_usdc: z.string().regex(/^\d+$/),
        since: z.iso.datetime(),
        last_error: z.string().nullable(),
      }),
    ),
  })
  .transform(({ refunds }): RefundDue[] =>
    refunds.map((r) => ({
      invoiceId: r.invoice_id,
      payer: r.payer,
      network: r.network,
      paymentPayer: r.payment_payer,
      orders: r.orders,
      amountUsdc: BigInt(r.amount_usdc),
      since: new Date(r.since),
      lastError: r.last_error,
    })),
  );

// POST /api/admin/refunds/{invoice_id}/mark-paid
export const markPaidRequest = z.strictObject({ tx: z.string().trim().min(1).max(1000) });

export const markPaidWire = z.object({ invoice_id: z.string(), marked: count, tx: z.string() });

// POST /api/admin/supply/sync
export const supplySyncWire = z.object({
  status: z.enum(["complete", "partial", "paused", "not_due", "busy"]),
  pages: count,
  imported: count,
  rejected: z.array(z.object({ row: z.number().int(), slug: z.string().optional(), errors: z.array(z.string()) })),
  gone: count,
  resume_at: z.string().nullable(),
  error: z.string().nullable(),
});

// POST /api/admin/fx/confirm
export const coinPriceConfirmRequest = z.strictObject({ coin: z.enum(["ETH"], { error: "must be a coin whose price can be held: ETH" }) });
export const fxConfirmRequest = z.strictObject({ as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be the day of the held rates, YYYY-MM-DD") });

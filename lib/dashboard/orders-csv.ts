import { stringify } from "csv-stringify/sync";
import type { ListedOrder } from "./order-list";

/** The export's columns, in order. Redemption codes are never exported: a CSV travels further than the dashboard. */
export const ORDERS_CSV_COLUMNS = [
  "order_id",
  "invoice_id",
  "created_time",
  "status",
  "product_id",
  "product_name",
  "value",
  "currency",
  "recipient",
  "price_usd",
  "refund_usd",
  "payment_method",
  "delivered_time",
  "error",
] as const;

const usd = (cents: bigint | null) => (cents === null ? "" : `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`);

/**
 * A spreadsheet opens a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return as a formula. Product names
 * and recipients come from outside, so such a cell gets a leading apostrophe (the OWASP advice for CSV injection).
 */
export function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function record(o: ListedOrder): string[] {
  const cells = [
    o.id,
    o.invoiceId,
    o.createdAt.toISOString(),
    o.status,
    o.productId,
    o.productName,
    o.packageValue,
    o.currency,
    o.recipient ?? "",
    usd(o.priceCents),
    usd(o.refundCents),
    o.paymentMethod ?? "",
    o.deliveredAt?.toISOString() ?? "",
    o.status === "failed" || o.status === "refunded" ? (o.lastError ?? o.errorCode ?? "") : "",
  ];
  return cells.map(defuseFormula);
}

/** The header line. */
export const ordersCsvHeader = (): string => stringify([[...ORDERS_CSV_COLUMNS]], { record_delimiter: "windows" });

/** Rows of the export (RFC 4180: CRLF line ends, quotes where a cell needs them). */
export const ordersCsvRows = (rows: ListedOrder[]): string => stringify(rows.map(record), { record_delimiter: "windows" });

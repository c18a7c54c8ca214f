import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";

/** One code as the operator's file gives it. */
export type StockCode = { code: string; pin: string | null; expirationDate: string | null };

export type StockFileRow = StockCode & { line: number };
export type RejectedStockRow = { line: number; error: string };

export class StockFileError extends Error {
  override name = "StockFileError";
}

const COLUMNS = ["code", "pin", "expiration_date"] as const;
/** Printable text without control characters or surrounding blanks. */
const printable = /^[^\p{Cc}\s](?:[^\p{Cc}]*[^\p{Cc}\s])?$/u;

/** One code as a stock file row or the admin API (`POST /api/admin/stock/import`) gives it: checked the same way. */
export const stockCodeSchema = z.object({
  code: z
    .string()
    .min(1, { error: "the code is empty", abort: true })
    .max(200, "the code is longer than 200 characters")
    .regex(printable, "the code holds control characters"),
  pin: z.string().max(64, "the PIN is longer than 64 characters").regex(printable, "the PIN holds control characters").nullable(),
  expiration_date: z.iso.date("the expiration date is not a date in the form YYYY-MM-DD").nullable(),
});

/**
 * Reads a stock file: CSV with a header naming `code` and optionally `pin` and `expiration_date` (YYYY-MM-DD), or
 * one code per line without a header. Rows that fail are reported with their line and skipped; a code given twice
 * in the file is reported at its second line.
 */
export function parseStockFile(text: string): { rows: StockFileRow[]; rejected: RejectedStockRow[] } {
  let records: string[][];
  try {
    records = parseCsv(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, info: false });
  } catch (err) {
    throw new StockFileError(`Not valid CSV: ${(err as Error).message}`);
  }
  if (records.length === 0) throw new StockFileError("The file holds no codes");

  const first = (records[0] ?? []).map((h) => h.toLowerCase());
  const hasHeader = first.includes("code");
  let columns: string[] = ["code"];
  if (hasHeader) {
    const unknown = first.filter((h) => !(COLUMNS as readonly string[]).includes(h));
    if (unknown.length > 0) throw new StockFileError(`Unknown column(s): ${unknown.join(", ")}. Columns: ${COLUMNS.join(", ")}`);
    columns = first;
  }

  const rows: StockFileRow[] = [];
  const rejected: RejectedStockRow[] = [];
  const seen = new Map<string, number>();
  records.slice(hasHeader ? 1 : 0).forEach((record, i) => {
    const line = i + (hasHeader ? 2 : 1);
    if (record.length > columns.length) {
      rejected.push({ line, error: `${record.length} values where ${columns.length} column(s) are expected` });
      return;
    }
    const value = (name: string) => {
      const v = record[columns.indexOf(name)];
      return v === undefined || v === "" ? null : v;
    };
    const parsed = stockCodeSchema.safeParse({ code: value("code") ?? "", pin: value("pin"), expiration_date: value("expiration_date") });
    if (!parsed.success) {
      rejected.push({ line, error: parsed.error.issues.map((issue) => issue.message).join("; ") });
      return;
    }
    const earlier = seen.get(parsed.data.code);
    if (earlier !== undefined) {
      rejected.push({ line, error: `the same code as line ${earlier}` });
      return;
    }
    seen.set(parsed.data.code, line);
    rows.push({ line, code: parsed.data.code, pin: parsed.data.pin, expirationDate: parsed.data.expiration_date });
  });
  return { rows, rejected };
}

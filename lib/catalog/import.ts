import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import type { Db } from "@/lib/platform/db/client";
import { productInputSchema, type ValidProductInput } from "./product-input";
import { upsertProducts, type UpsertOptions } from "./store";

export type RejectedRow = {
  /** 1-based: the CSV line (after the header) or the index in the JSON array. */
  row: number;
  slug?: string;
  errors: string[];
};

export type ImportReport = { imported: number; rejected: RejectedRow[]; total: number };

export class ImportFormatError extends Error {
  override name = "ImportFormatError";
}

const list = (v: string | undefined) =>
  (v ?? "")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

const bool = (v: string | undefined) => {
  const t = (v ?? "").trim().toLowerCase();
  if (t === "") return undefined;
  if (["true", "yes", "1"].includes(t)) return true;
  if (["false", "no", "0"].includes(t)) return false;
  return t; // left for the schema to refuse with its own message
};

const int = (v: string | undefined) => {
  const t = (v ?? "").trim();
  return t === "" ? undefined : /^-?\d+$/.test(t) ? Number(t) : t;
};

/**
 * One CSV row -> the same object shape the JSON import takes. Lists are separated by `;`.
 * Packages: `10;25;50`, or with a face value different from the label: `3GB, 30 Days=9.50;Unlimited, 7 Days=29`.
 */
export function csvRowToInput(r: Record<string, string | undefined>): unknown {
  const packages = list(r.packages).map((entry) => {
    const eq = entry.lastIndexOf("=");
    return eq > 0 ? { value: entry.slice(0, eq).trim(), faceValue: entry.slice(eq + 1).trim() } : { value: entry };
  });
  const range = r.range_min || r.range_max || r.range_step ? { min: r.range_min ?? "", max: r.range_max ?? "", step: r.range_step ?? "" } : undefined;
  const opt = (v: string | undefined) => (v && v.trim() !== "" ? v : undefined);
  return {
    slug: r.slug,
    name: r.name,
    kind: r.kind,
    brand: r.brand,
    country: opt(r.country),
    coverage: r.coverage ? list(r.coverage) : undefined,
    region: opt(r.region),
    currency: r.currency,
    categories: list(r.categories),
    description: r.description,
    redemptionInstructions: r.redemption_instructions,
    image: opt(r.image),
    recipientType: opt(r.recipient_type),
    phonePrefixes: list(r.phone_prefixes),
    inStock: bool(r.in_stock),
    popularity: int(r.popularity),
    packages,
    range,
  };
}

export const CSV_COLUMNS = [
  "slug",
  "name",
  "kind",
  "brand",
  "country",
  "coverage",
  "region",
  "currency",
  "categories",
  "description",
  "redemption_instructions",
  "image",
  "recipient_type",
  "phone_prefixes",
  "in_stock",
  "popularity",
  "packages",
  "range_min",
  "range_max",
  "range_step",
] as const;

/** Reads a catalog file's text: a JSON array (or `{ "products": [...] }`) or a CSV with a header row. */
export function parseCatalogFile(text: string, format: "json" | "csv"): unknown[] {
  if (format === "json") {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ImportFormatError(`Not valid JSON: ${(err as Error).message}`);
    }
    const shape = z.union([z.array(z.unknown()), z.object({ products: z.array(z.unknown()) })]).safeParse(data);
    if (!shape.success) throw new ImportFormatError('A JSON catalog is an array of products or { "products": [...] }');
    return Array.isArray(shape.data) ? shape.data : shape.data.products;
  }
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true, relax_column_count: false });
  } catch (err) {
    throw new ImportFormatError(`Not valid CSV: ${(err as Error).message}`);
  }
  const header = records[0] ? Object.keys(records[0]) : [];
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0) throw new ImportFormatError(`Unknown CSV column(s): ${unknown.join(", ")}. Columns: ${CSV_COLUMNS.join(", ")}`);
  return records.map(csvRowToInput);
}

/** Validates every row; returns the valid products and a report line for each rejected one. */
export function validateCatalogRows(rows: unknown[]): { valid: ValidProductInput[]; rejected: RejectedRow[] } {
  const valid: ValidProductInput[] = [];
  const rejected: RejectedRow[] = [];
  const seen = new Map<string, number>();
  rows.forEach((raw, i) => {
    const row = i + 1;
    const slug = typeof raw === "object" && raw && "slug" in raw && typeof raw.slug === "string" ? raw.slug : undefined;
    const parsed = productInputSchema.safeParse(raw);
    if (!parsed.success) {
      rejected.push({
        row,
        slug,
        errors: parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "row"}: ${issue.message}`),
      });
      return;
    }
    const first = seen.get(parsed.data.slug);
    if (first !== undefined) {
      rejected.push({ row, slug, errors: [`slug: ${parsed.data.slug} appears again (first in row ${first})`] });
      return;
    }
    seen.set(parsed.data.slug, row);
    valid.push(parsed.data);
  });
  return { valid, rejected };
}

/**
 * Imports the valid rows (insert or replace by slug, all in one transaction) and reports the rejected ones. The
 * upstream supplier's sync imports through here too, marking the products as its own (`supplier`).
 */
export async function importCatalog(db: Db, rows: unknown[], opts: Pick<UpsertOptions, "supplier"> = {}): Promise<ImportReport> {
  const { valid, rejected } = validateCatalogRows(rows);
  const imported = await upsertProducts(db, valid, opts);
  return { imported, rejected, total: rows.length };
}

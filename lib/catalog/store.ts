import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db/client";
import { productPackages, products } from "@/lib/platform/db/schema";
import { currencyExponent } from "./currency";
import { parseMinorUnits } from "@/lib/platform/money";
import { normalizeText } from "./normalize";
import type { ValidProductInput } from "./product-input";
import { buildSearchText } from "./search-text";
import { catalogChanged } from "./snapshot";

/** Where a product's picture is served when its input names none (rendered from its brand, see app/img). */
export function defaultImagePath(slug: string): string {
  return `/img/products/${slug}.svg`;
}

function toRows(p: ValidProductInput) {
  const exponent = currencyExponent(p.currency);
  if (exponent === undefined) throw new Error(`Unknown currency ${p.currency}`);
  const minor = (amount: string) => {
    const v = parseMinorUnits(amount, exponent);
    if (v === undefined) throw new Error(`Bad amount ${amount} for ${p.slug}`);
    return v;
  };
  const coverage = p.coverage?.length ? [...new Set(p.coverage)] : p.country ? [p.country] : [];
  const product = {
    id: p.slug,
    name: p.name,
    kind: p.kind,
    brand: p.brand,
    brandKey: normalizeText(p.brand),
    country: p.country ?? null,
    coverage,
    region: p.region ?? null,
    currency: p.currency,
    categories: p.categories,
    description: p.description,
    redemptionInstructions: p.redemptionInstructions,
    image: p.image ?? defaultImagePath(p.slug),
    recipientType: p.recipientType,
    phonePrefixes: p.phonePrefixes,
    inStock: p.inStock,
    isTest: p.isTest,
    popularity: p.popularity,
    rangeMinMinor: p.range ? minor(p.range.min) : null,
    rangeMaxMinor: p.range ? minor(p.range.max) : null,
    rangeStepMinor: p.range ? minor(p.range.step) : null,
    rangeCostRate: p.range?.costRate ?? null,
    titleKey: normalizeText(`${p.name} ${p.brand}`),
    searchText: buildSearchText({ ...p, coverage }),
    updatedAt: new Date(),
  };
  const packages = p.packages.map((pkg, position) => ({
    productId: p.slug,
    value: pkg.value,
    faceValueMinor: minor(pkg.faceValue ?? pkg.value),
    dataMb: pkg.dataMb ?? null,
    validityDays: pkg.validityDays ?? null,
    costCents: pkg.costCents === undefined ? null : BigInt(pkg.costCents),
    inStock: pkg.inStock,
    position,
  }));
  return { product, packages };
}

export type UpsertOptions = {
  /** Products written per statement (the event loop gets a turn between two). */
  batchSize?: number;
  /**
   * The upstream supplier's sync marks its products as its own, and the shop its own gift card (`store`); an operator's
   * import leaves the supplier alone.
   */
  supplier?: "upstream" | "store";
};

/**
 * Inserts or replaces products (by slug) with their packages, in one transaction: a failed batch changes nothing.
 * Inputs must already have passed `productInputSchema`. Between two batches the event loop gets its turn: PGlite runs
 * each statement inside this process, so a 20 MB import written in one go would hold every other request (and let
 * idle keep-alive connections time out under the clients that are reusing them) for its whole length, ~9 s.
 */
export async function upsertProducts(db: Db, inputs: ValidProductInput[], opts: UpsertOptions = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 200;
  if (inputs.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < inputs.length; i += batchSize) {
      const rows = inputs.slice(i, i + batchSize).map((p) => {
        const r = toRows(p);
        return opts.supplier ? { ...r, product: { ...r.product, supplier: opts.supplier } } : r;
      });
      const ids = rows.map((r) => r.product.id);
      await tx
        .insert(products)
        .values(rows.map((r) => r.product))
        .onConflictDoUpdate({
          target: products.id,
          set: Object.fromEntries(
            Object.keys(rows[0]!.product)
              .filter((k) => k !== "id")
              .map((k) => [k, sql.raw(`excluded.${columnName(k)}`)]),
          ),
        });
      await tx.delete(productPackages).where(inArray(productPackages.productId, ids));
      const packages = rows.flatMap((r) => r.packages);
      if (packages.length > 0) await tx.insert(productPackages).values(packages);
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  catalogChanged(db);
  return inputs.length;
}

function columnName(key: string): string {
  const column = (products as unknown as Record<string, { name: string } | undefined>)[key];
  if (!column) throw new Error(`Unknown product column ${key}`);
  return `"${column.name}"`;
}

export async function countProducts(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
  return row?.n ?? 0;
}

export async function deleteProduct(db: Db, slug: string): Promise<boolean> {
  const deleted = await db.delete(products).where(eq(products.id, slug)).returning({ id: products.id });
  catalogChanged(db);
  return deleted.length > 0;
}

import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/platform/db";
import { inventoryCodes, products } from "@/lib/platform/db/schema";
import { countryName } from "./countries";
import { currencyExponent } from "./currency";
import { formatMinorUnits } from "@/lib/platform/money";
import { packageId } from "./package-id";
import { demoSupply, upstreamSupply } from "./supply";
import { atLeastCost, minMax, productPricer, rangePricer } from "./product-pricer";
import { catalogSnapshot, priceable, type CatalogSnapshot, type PackageRow, type ProductRow } from "./snapshot";
import { fxSource, type FxSource } from "./fx";
import { config } from "@/lib/platform/config";
import type { Product, ProductSummary } from "./types";

type SummaryRow = Pick<ProductRow, "id" | "name" | "kind" | "brand" | "country" | "coverage" | "region" | "currency" | "image" | "inStock">;

export function toSummary(row: SummaryRow, from: bigint | null, to: bigint | null): ProductSummary {
  return {
    slug: row.id,
    name: row.name,
    kind: row.kind,
    brand: row.brand,
    country: row.country,
    coverage: row.coverage,
    region: row.region,
    currency: row.currency,
    image: row.image,
    inStock: row.inStock,
    priceFromUsdc: from,
    priceToUsdc: to,
  };
}

/** The product with its packages and prices, or null when no product has this slug. */
export async function getProduct(slug: string, db?: Db): Promise<Product | null> {
  return (await getProducts([slug], db))[0] ?? null;
}

/**
 * Products with their packages and prices, in the order of `slugs` (unknown slugs are left out), from the catalog
 * snapshot (snapshot.ts); the free codes of inventory products are counted in one query when there are any.
 */
export async function getProducts(slugs: string[], db?: Db): Promise<Product[]> {
  if (slugs.length === 0) return [];
  db ??= await getDb();
  const catalog = await catalogSnapshot(db);
  // Test products exist on the devnet only: elsewhere they are unknown (404 on detail, refused at checkout).
  const rows = [...new Set(slugs)].flatMap((s) => {
    const row = catalog.rows.get(s);
    return row && (demoSupply() || !row.isTest) && priceable(row) ? [row] : [];
  });
  if (rows.length === 0) return [];
  const inventory = rows.filter((r) => r.supplier === "inventory").map((r) => r.id);
  const stock = inventory.length > 0 ? await freeCodesByPackage(db, inventory) : new Map<string, number>();
  const byId = new Map(rows.map((r) => [r.id, r.supplier === "inventory" ? toProduct(r, catalog.packages.get(r.id) ?? [], stock) : pricedProduct(catalog, r)]));
  return slugs.flatMap((s) => byId.get(s) ?? []);
}

type PricedCatalog = { fx: FxSource; marginBps: number; products: Map<string, Product> };
const priced = new WeakMap<CatalogSnapshot, PricedCatalog>();

/**
 * A product whose stock is not counted (the demo supplier's), priced once per catalog snapshot and rates: the same
 * object for every request until an import or new rates. Callers never change it.
 */
function pricedProduct(catalog: CatalogSnapshot, row: ProductRow): Product {
  const fx = fxSource();
  const marginBps = config().priceMarginBps;
  let held = priced.get(catalog);
  if (!held || held.fx !== fx || held.marginBps !== marginBps) {
    held = { fx, marginBps, products: new Map() };
    priced.set(catalog, held);
  }
  let product = held.products.get(row.id);
  if (!product) {
    product = toProduct(row, catalog.packages.get(row.id) ?? [], null);
    held.products.set(row.id, product);
  }
  return product;
}

function toProduct(row: ProductRow, pkgs: PackageRow[], stock: Map<string, number> | null): Product {
  const exponent = currencyExponent(row.currency) ?? 2;
  const price = productPricer(row.currency, row.supplier);
  const packages = pkgs.map((p) => ({
    id: packageId(row.id, p.value),
    value: p.value,
    faceValueMinor: p.faceValueMinor,
    faceValue: formatMinorUnits(p.faceValueMinor, exponent),
    priceUsdc: atLeastCost(price(p.faceValueMinor), p.costCents),
    dataMb: p.dataMb,
    validityDays: p.validityDays,
    // Counted codes for the operator's stock; else a package the supplier cannot deliver now is sold out.
    stock: stock ? (stock.get(stockKey(row.id, p.value)) ?? 0) : p.inStock ? null : 0,
  }));
  const rangePrice = rangePricer(row, price);
  const range =
    row.rangeMinMinor !== null && row.rangeMaxMinor !== null && row.rangeStepMinor !== null
      ? {
          minMinor: row.rangeMinMinor,
          maxMinor: row.rangeMaxMinor,
          stepMinor: row.rangeStepMinor,
          min: formatMinorUnits(row.rangeMinMinor, exponent),
          max: formatMinorUnits(row.rangeMaxMinor, exponent),
          step: formatMinorUnits(row.rangeStepMinor, exponent),
          minPriceUsdc: rangePrice(row.rangeMinMinor),
          maxPriceUsdc: rangePrice(row.rangeMaxMinor),
          costRate: row.rangeCostRate,
        }
      : null;
  // The price range is what can be bought now: sold-out packages leave it, unless nothing is on sale (then it is the
  // product's usual range, beside "sold out").
  const onSale = packages.filter((p) => p.stock !== 0);
  const listed = onSale.length > 0 || range ? onSale : packages;
  const { min, max } = minMax([...listed.map((p) => p.priceUsdc), ...(range ? [range.minPriceUsdc, range.maxPriceUsdc] : [])]);
  const sellable = stock === null ? range !== null || packages.some((p) => p.stock !== 0) : packages.some((p) => (p.stock ?? 0) > 0);
  const inStock = row.inStock && suppliedNow(row.supplier) && sellable;
  return {
    ...toSummary({ ...row, inStock }, min, max),
    categories: row.categories,
    description: row.description,
    redemptionInstructions: row.redemptionInstructions,
    recipientType: row.recipientType,
    phonePrefixes: row.phonePrefixes,
    isTest: row.isTest,
    supplier: row.supplier,
    packages,
    range,
    createdAt: row.createdAt,
  };
}

/**
 * Whether the product's supplier can deliver in this shop now: the demo supplier on the devnet only, the upstream
 * while one is configured; the operator's stock always (its codes are counted per package), and the shop itself (its
 * own gift card) always.
 */
export function suppliedNow(supplier: ProductRow["supplier"]): boolean {
  return supplier === "demo" ? demoSupply() : supplier === "upstream" ? upstreamSupply() : true;
}

const stockKey = (productId: string, value: string) => `${productId}\u0000${value}`;

/** Which of these inventory products have a code free to sell. */
export async function productsWithFreeCodes(db: Db, productIds: string[]): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ productId: inventoryCodes.productId })
    .from(inventoryCodes)
    .where(and(inArray(inventoryCodes.productId, productIds), isNull(inventoryCodes.orderId)));
  return new Set(rows.map((r) => r.productId));
}

/** Codes free to sell per package of inventory products. */
async function freeCodesByPackage(db: Db, productIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ productId: inventoryCodes.productId, value: inventoryCodes.packageValue, n: sql<number>`count(*)::int` })
    .from(inventoryCodes)
    .where(and(inArray(inventoryCodes.productId, productIds), isNull(inventoryCodes.orderId)))
    .groupBy(inventoryCodes.productId, inventoryCodes.packageValue);
  return new Map(rows.map((r) => [stockKey(r.productId, r.value), Number(r.n)]));
}

/** Slugs that look like `slug`, best first: for "did you mean" on a 404. */
export async function suggestSlugs(slug: string, limit = 5, db?: Db): Promise<{ slug: string; name: string }[]> {
  db ??= await getDb();
  const similarity = sql<number>`similarity(${products.id}, ${slug})`;
  return db
    .select({ slug: products.id, name: products.name })
    .from(products)
    .where(and(eq(products.isTest, false), sql`${similarity} > 0.3`))
    .orderBy(desc(similarity), asc(products.id))
    .limit(limit);
}

export function countryLabel(p: Pick<ProductSummary, "country" | "region" | "coverage">): string {
  if (p.country) return countryName(p.country) ?? p.country;
  if (p.region) return `${p.region} (${p.coverage.length} countries)`;
  return `${p.coverage.length} countries`;
}

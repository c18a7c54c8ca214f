import { getDb, type Db } from "@/lib/platform/db";
import { countryName } from "./countries";
import type { ProductKind } from "./product-input";
import { search } from "./search";
import { catalogSnapshot, priceable } from "./snapshot";
import type { ProductSummary } from "./types";

export type Country = { code: string; name: string };

/** Every country some product is sold for (test products aside), by name: from the catalog snapshot. */
export async function listCountries(db?: Db): Promise<Country[]> {
  const catalog = await catalogSnapshot(db ?? (await getDb()));
  const codes = new Set<string>();
  for (const row of catalog.rows.values()) if (!row.isTest) for (const code of row.coverage) codes.add(code);
  return [...codes].map((code) => ({ code, name: countryName(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, "en"));
}

export type BrandSummary = { brand: string; slug: string; products: number };

/**
 * The best-selling gift-card brands (by their most popular product, then by name), optionally for one country;
 * `slug` is the brand's most popular product. From the catalog snapshot.
 */
export async function listPopularBrands(opts: { country?: string; limit?: number } = {}, db?: Db): Promise<BrandSummary[]> {
  const catalog = await catalogSnapshot(db ?? (await getDb()));
  const brands = new Map<string, BrandSummary & { popularity: number }>();
  // Most popular first: a brand's first product is its most popular one (of equals, the first slug).
  for (const row of catalog.browseOrder) {
    if (row.isTest || row.kind !== "gift_card" || (opts.country && !row.coverage.includes(opts.country)) || !priceable(row)) continue;
    const known = brands.get(row.brand);
    if (!known) brands.set(row.brand, { brand: row.brand, slug: row.id, products: 1, popularity: row.popularity });
    else {
      known.products += 1;
      if (row.popularity === known.popularity && row.id < known.slug) known.slug = row.id;
    }
  }
  return [...brands.values()]
    .sort((a, b) => b.popularity - a.popularity || codePointOrder(a.brand, b.brand))
    .slice(0, opts.limit ?? 12)
    .map(({ brand, slug, products }) => ({ brand, slug, products }));
}

const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The most popular products of a kind (in a country when given), for the home page. */
export async function listFeatured(opts: { kind?: ProductKind; country?: string; limit?: number } = {}, db?: Db): Promise<ProductSummary[]> {
  const result = await search({ kind: opts.kind, country: opts.country, pageSize: opts.limit ?? 8 }, db);
  return result.items;
}

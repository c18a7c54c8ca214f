import { getDb, type Db } from "@/lib/platform/db";
import { countryName } from "./countries";
import type { ProductKind } from "./product-input";
import { search } from "./search";
import { catalogSnapshot, priceable, type CatalogSnapshot } from "./snapshot";
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

/** What the shop sells, counted: the numbers pages state (the home page, llms.txt) rather than writing them down. */
export type CatalogFacts = {
  /** Products a shopper can find: test products and products without a price today aside. */
  products: number;
  /** Their brands, every kind together (a mobile operator is a top-up's brand). */
  brands: number;
  giftCardBrands: number;
  /** Countries some eSIM covers. */
  esimCountries: number;
  /** Mobile operators some top-up is for. */
  operators: number;
  /** Countries some product is sold for. */
  countries: number;
};

// Counted once per snapshot: a new catalog is a new snapshot, counted again on its first read.
const factsOf = new WeakMap<CatalogSnapshot, CatalogFacts>();

/** The catalog's counts, from the catalog snapshot (kept with it: a page that states them reads no more than that). */
export async function catalogFacts(db?: Db): Promise<CatalogFacts> {
  const catalog = await catalogSnapshot(db ?? (await getDb()));
  const known = factsOf.get(catalog);
  if (known) return known;
  let products = 0;
  const brands = new Set<string>();
  const giftCardBrands = new Set<string>();
  const operators = new Set<string>();
  const esimCountries = new Set<string>();
  const countries = new Set<string>();
  for (const row of catalog.rows.values()) {
    if (row.isTest || !priceable(row)) continue;
    products += 1;
    brands.add(row.brand);
    if (row.kind === "gift_card") giftCardBrands.add(row.brand);
    if (row.kind === "topup") operators.add(row.brand);
    for (const code of row.coverage) {
      countries.add(code);
      if (row.kind === "esim") esimCountries.add(code);
    }
  }
  const facts: CatalogFacts = {
    products,
    brands: brands.size,
    giftCardBrands: giftCardBrands.size,
    esimCountries: esimCountries.size,
    operators: operators.size,
    countries: countries.size,
  };
  factsOf.set(catalog, facts);
  return facts;
}

import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db";
import { products } from "@/lib/db/schema";
import { countryName } from "./countries";
import type { ProductKind } from "./product-input";
import { search } from "./search";
import type { ProductSummary } from "./types";

export type Country = { code: string; name: string };

/** Every country some product is sold for (test products aside), by name. */
export async function listCountries(db?: Db): Promise<Country[]> {
  db ??= await getDb();
  const rows = await db
    .selectDistinct({ code: sql<string>`unnest(${products.coverage})` })
    .from(products)
    .where(eq(products.isTest, false));
  return rows.map(({ code }) => ({ code, name: countryName(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, "en"));
}

export type BrandSummary = { brand: string; slug: string; products: number };

/** The best-selling gift-card brands, optionally for one country; `slug` is the brand's most popular product. */
export async function listPopularBrands(opts: { country?: string; limit?: number } = {}, db?: Db): Promise<BrandSummary[]> {
  db ??= await getDb();
  const filters: SQL[] = [eq(products.isTest, false), eq(products.kind, "gift_card")];
  if (opts.country) filters.push(sql`${products.coverage} @> ARRAY[${opts.country}]::text[]`);
  const top = sql<number>`max(${products.popularity})`;
  const rows = await db
    .select({
      brand: products.brand,
      slug: sql<string>`(array_agg(${products.id} ORDER BY ${products.popularity} DESC, ${products.id}))[1]`,
      products: sql<number>`count(*)::int`,
    })
    .from(products)
    .where(and(...filters))
    .groupBy(products.brand)
    .orderBy(desc(top), asc(products.brand))
    .limit(opts.limit ?? 12);
  return rows;
}

/** The most popular products of a kind (in a country when given), for the home page. */
export async function listFeatured(opts: { kind?: ProductKind; country?: string; limit?: number } = {}, db?: Db): Promise<ProductSummary[]> {
  const result = await search({ kind: opts.kind, country: opts.country, pageSize: opts.limit ?? 8 }, db);
  return result.items;
}

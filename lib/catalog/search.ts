import { likeEscape } from "@/lib/platform/db/like";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Db } from "@/lib/platform/db";
import { products } from "@/lib/platform/db/schema";
import { productsWithFreeCodes, suppliedNow, toSummary } from "./get-product";
import { fxSource, type FxSource } from "./fx";
import { catalogSnapshot, priceable, type CatalogSnapshot } from "./snapshot";
import { queryTokens } from "./normalize";
import { demoSupply } from "./supply";
import { atLeastCost, minMax, productPricer, rangePricer } from "./product-pricer";
import { PRODUCT_KINDS } from "./product-input";
import type { ProductSummary } from "./types";

/** How alike a query word and a word of the product must be (pg_trgm word similarity) to count as a typo of it. */
const TYPO_THRESHOLD = 0.4;
export const MAX_PAGE_SIZE = 100;

export const searchQuerySchema = z.object({
  /** Free text; omitted, empty or `*` browses everything. */
  q: z.string().max(100, "q must be at most 100 characters").optional(),
  kind: z.enum(PRODUCT_KINDS).optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "country must be an ISO 3166-1 alpha-2 code such as US")
    .optional(),
  /** A category name, any case ("gaming"). */
  category: z.string().trim().min(1).max(50).optional(),
  /** The region of regional products (eSIMs for "Europe", "Global"), any case. */
  region: z.string().trim().min(1).max(50).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  /** Rows to skip, for offset paging (the merchant API's `start`); replaces `page` when given. */
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(24),
  includeTest: z.boolean().default(false),
});

export type SearchQuery = z.input<typeof searchQuerySchema>;

export type SearchResult = {
  items: ProductSummary[];
  total: number;
  page: number;
  pageSize: number;
  /** The query as understood: normalized words, empty when browsing. */
  tokens: string[];
};

/**
 * Searches the catalog. Each query word must match a product as a word prefix (full-text over name, brand,
 * categories, countries, region and kind: "ste" finds Steam) or as a likely typo of a word of its name or brand
 * (trigram word similarity against the short title, which keeps it cheap: "stema" finds Steam). Products whose brand is the query rank
 * first, then by relevance, then by popularity. Works the same on PGlite and PostgreSQL (both have pg_trgm).
 *
 * Browsing (no words) is served from the catalog snapshot (snapshot.ts) without a query; a text search asks the
 * database once per query and catalog version and keeps the ranked ids with the snapshot. Either way the page's
 * products come from the snapshot, with their stock counted now.
 */
export async function search(query: SearchQuery, db?: Db): Promise<SearchResult> {
  db ??= await getDb();
  const { ids, catalog, ...page } = await searchPage(query, db);
  return { items: await summaries(db, catalog, ids), ...page };
}

/**
 * A page of `search` as the products' ids (slugs), without their summaries: for a caller that reads the products
 * themselves (the merchant API's lists, through getProducts).
 */
export async function searchIds(query: SearchQuery, db?: Db): Promise<Omit<SearchResult, "items"> & { ids: string[] }> {
  const { ids, total, page, pageSize, tokens } = await searchPage(query, db ?? (await getDb()));
  return { ids, total, page, pageSize, tokens };
}

async function searchPage(query: SearchQuery, db: Db) {
  const q = searchQuerySchema.parse(query);
  const tokens = q.q === undefined || q.q.trim() === "*" ? [] : queryTokens(q.q);
  const catalog = await catalogSnapshot(db);
  const withTest = q.includeTest && demoSupply();
  const t: TextQuery = { tokens, kind: q.kind, country: q.country, category: q.category?.toLowerCase(), region: q.region?.toLowerCase(), withTest };
  const priced = await listedIds(db, catalog, t);
  const skipped = q.offset ?? (q.page - 1) * q.pageSize;
  return { ids: priced.slice(skipped, skipped + q.pageSize), catalog, total: priced.length, page: q.page, pageSize: q.pageSize, tokens };
}

type TextQuery = { tokens: string[]; kind?: string; country?: string; category?: string; region?: string; withTest: boolean };

/** How long a list of a query's products is kept: a rate that ages out meanwhile takes its products out after this. */
const LISTED_FRESH_MS = 1_000;
/** Lists kept per snapshot: the most asked queries, up to this many. */
const MAX_KEPT_LISTS = 500;
const listed = new WeakMap<CatalogSnapshot, Map<string, { at: number; fx: FxSource; ids: Promise<string[]> }>>();

/**
 * Every product of a query (words and filters), in its order, that can be priced now: browsing from the snapshot,
 * words through `rankedIds`. Kept with the snapshot for a second, with the rates it was priced with, so that under
 * load a page of the catalog does not filter the whole catalog again for each request; new rates, or a new snapshot
 * (an import, a stock change), make a new list.
 */
function listedIds(db: Db, catalog: CatalogSnapshot, t: TextQuery, now = Date.now()): Promise<string[]> {
  const lists = listed.get(catalog) ?? new Map<string, { at: number; fx: FxSource; ids: Promise<string[]> }>();
  listed.set(catalog, lists);
  const key = JSON.stringify([t.tokens, t.kind, t.country, t.category, t.region, t.withTest]);
  const fx = fxSource();
  const held = lists.get(key);
  if (held && held.fx === fx && now - held.at < LISTED_FRESH_MS) return held.ids;
  const ids = (t.tokens.length === 0 ? Promise.resolve(browsed(catalog, t)) : rankedIds(db, catalog, t)).then((all) =>
    // Products whose currency has no usable rate are unavailable: left out, and not counted.
    all.filter((id) => {
      const row = catalog.rows.get(id);
      return row !== undefined && priceable(row);
    }),
  );
  lists.delete(key);
  lists.set(key, { at: now, fx, ids });
  ids.catch(() => lists.delete(key));
  if (lists.size > MAX_KEPT_LISTS) lists.delete(lists.keys().next().value!);
  return ids;
}

/** Browsing: the snapshot's products in their browse order that pass the filters. */
function browsed(catalog: CatalogSnapshot, t: TextQuery): string[] {
  return catalog.browseOrder
    .filter(
      (r) =>
        (t.withTest || !r.isTest) &&
        (!t.kind || r.kind === t.kind) &&
        (!t.country || r.coverage.includes(t.country)) &&
        (!t.category || r.categories.some((c) => c.toLowerCase() === t.category)) &&
        (!t.region || r.region?.toLowerCase() === t.region),
    )
    .map((r) => r.id);
}
/** Text searches kept per snapshot: the most asked ones, up to this many. */
const MAX_KEPT_SEARCHES = 500;
const kept = new WeakMap<CatalogSnapshot, Map<string, Promise<string[]>>>();

/** Every product that matches the words and filters, best first: from the database once per snapshot, then kept. */
function rankedIds(db: Db, catalog: CatalogSnapshot, t: TextQuery): Promise<string[]> {
  const searches = kept.get(catalog) ?? new Map<string, Promise<string[]>>();
  kept.set(catalog, searches);
  const key = JSON.stringify([t.tokens, t.kind, t.country, t.category, t.region, t.withTest]);
  const found = searches.get(key);
  if (found) {
    // Most recently asked last: the first is the one to drop.
    searches.delete(key);
    searches.set(key, found);
    return found;
  }
  const ranking = textSearch(db, t);
  searches.set(key, ranking);
  ranking.catch(() => searches.delete(key));
  if (searches.size > MAX_KEPT_SEARCHES) searches.delete(searches.keys().next().value!);
  return ranking;
}

async function textSearch(db: Db, t: TextQuery): Promise<string[]> {
  const phrase = t.tokens.join(" ");
  const filters: SQL[] = [];
  if (!t.withTest) filters.push(eq(products.isTest, false));
  if (t.kind) filters.push(sql`${products.kind} = ${t.kind}`);
  if (t.country) filters.push(sql`${products.coverage} @> ARRAY[${t.country}]::text[]`);
  if (t.category) filters.push(sql`EXISTS (SELECT 1 FROM unnest(${products.categories}) c WHERE lower(c) = ${t.category})`);
  if (t.region) filters.push(sql`lower(${products.region}) = ${t.region}`);
  for (const token of t.tokens) {
    filters.push(sql`(${products.searchVector} @@ to_tsquery('simple', ${token + ":*"}) OR ${token} <% ${products.titleKey})`);
  }
  const prefixQuery = sql`to_tsquery('simple', ${t.tokens.map((w) => `${w}:*`).join(" & ")})`;
  return db.transaction(async (tx) => {
    // The typo threshold, and the indexes: on a small table the planner would rather scan and compute word
    // similarity for every row, which costs several times what the trigram and full-text indexes do.
    await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_THRESHOLD)}, true), set_config('enable_seqscan', 'off', true)`);
    const rows = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(...filters))
      .orderBy(
        desc(sql`(${products.brandKey} = ${phrase} OR replace(${products.brandKey}, ' ', '') = ${phrase.replace(/ /g, "")})`),
        desc(
          sql`(CASE WHEN ${products.brandKey} LIKE ${likeEscape(phrase) + "%"} THEN 0.5 ELSE 0 END)
            + ts_rank(${products.searchVector}, ${prefixQuery})
            + word_similarity(${phrase}, ${products.titleKey})
            + similarity(${products.brandKey}, ${phrase})`,
        ),
        desc(products.popularity),
        asc(products.name),
      );
    return rows.map((r) => r.id);
  });
}

/** The summaries of these products, from the snapshot, with stock as it is now (one query when inventory products are among them). */
async function summaries(db: Db, catalog: CatalogSnapshot, ids: string[]): Promise<ProductSummary[]> {
  const rows = ids.flatMap((id) => catalog.rows.get(id) ?? []);
  const inventory = rows.filter((r) => r.supplier === "inventory").map((r) => r.id);
  const stocked = inventory.length > 0 ? await productsWithFreeCodes(db, inventory) : new Set<string>();
  return rows.map((row) => {
    const all = catalog.packages.get(row.id) ?? [];
    // As on the product page: sold-out packages leave the price range while anything is on sale (an inventory
    // product's codes are counted per product here, so its packages all count).
    const onSale = row.supplier === "inventory" ? all : all.filter((p) => p.inStock);
    const pkgs = onSale.length > 0 || row.rangeMinMinor !== null ? onSale : all;
    const price = productPricer(row.currency, row.supplier);
    const sellable = row.supplier === "inventory" ? stocked.has(row.id) : row.rangeMinMinor !== null || pkgs.some((p) => p.inStock);
    const inStock = row.inStock && suppliedNow(row.supplier) && sellable;
    if (row.rangeCostRate !== null || pkgs.some((p) => p.costCents !== null)) {
      // An upstream product's price follows its cost, which need not rise with face value: every package is priced.
      const prices = pkgs.map((p) => atLeastCost(price(p.faceValueMinor), p.costCents));
      if (row.rangeMinMinor !== null && row.rangeMaxMinor !== null) {
        const rangePrice = rangePricer(row, price);
        prices.push(rangePrice(row.rangeMinMinor), rangePrice(row.rangeMaxMinor));
      }
      const { min, max } = minMax(prices);
      return toSummary({ ...row, inStock }, min, max);
    }
    const faces = pkgs.map((p) => p.faceValueMinor);
    if (row.rangeMinMinor !== null) faces.push(row.rangeMinMinor);
    if (row.rangeMaxMinor !== null) faces.push(row.rangeMaxMinor);
    // Pricing rises with face value, so the cheapest and dearest faces give the price range.
    const { min, max } = minMax(faces);
    return toSummary({ ...row, inStock }, min === null ? null : price(min), max === null ? null : price(max));
  });
}

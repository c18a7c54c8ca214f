import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Db } from "@/lib/db";
import { products } from "@/lib/db/schema";
import { summaryColumns, toSummary } from "./get-product";
import { queryTokens } from "./normalize";
import { demoSupply } from "./supply";
import { minMax, productPricer } from "./product-pricer";
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
 */
export async function search(query: SearchQuery, db?: Db): Promise<SearchResult> {
  const q = searchQuerySchema.parse(query);
  db ??= await getDb();
  const tokens = q.q === undefined || q.q.trim() === "*" ? [] : queryTokens(q.q);
  const phrase = tokens.join(" ");

  const filters: SQL[] = [];
  if (!q.includeTest || !demoSupply()) filters.push(eq(products.isTest, false));
  if (q.kind) filters.push(eq(products.kind, q.kind));
  if (q.country) filters.push(sql`${products.coverage} @> ARRAY[${q.country}]::text[]`);
  if (q.category) filters.push(sql`EXISTS (SELECT 1 FROM unnest(${products.categories}) c WHERE lower(c) = lower(${q.category}))`);
  for (const token of tokens) {
    filters.push(sql`(${products.searchVector} @@ to_tsquery('simple', ${token + ":*"}) OR ${token} <% ${products.titleKey})`);
  }

  const prefixQuery = sql`to_tsquery('simple', ${tokens.map((t) => `${t}:*`).join(" & ")})`;
  const order: SQL[] =
    tokens.length === 0
      ? [desc(products.popularity), asc(products.name)]
      : [
          desc(sql`(${products.brandKey} = ${phrase} OR replace(${products.brandKey}, ' ', '') = ${phrase.replace(/ /g, "")})`),
          desc(
            sql`(CASE WHEN ${products.brandKey} LIKE ${escapeLike(phrase) + "%"} THEN 0.5 ELSE 0 END)
              + ts_rank(${products.searchVector}, ${prefixQuery})
              + word_similarity(${phrase}, ${products.titleKey})
              + similarity(${products.brandKey}, ${phrase})`,
          ),
          desc(products.popularity),
          asc(products.name),
        ];

  const faceRange = sql<string | null>`(SELECT min(pp.face_value_minor)::text || ':' || max(pp.face_value_minor)::text
    FROM product_packages pp WHERE pp.product_id = ${products.id})`;

  const run = async (tx: Db) => {
    if (tokens.length > 0) {
      // The typo threshold, and the indexes: on a small table the planner would rather scan and compute word
      // similarity for every row, which costs several times what the trigram and full-text indexes do.
      await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_THRESHOLD)}, true), set_config('enable_seqscan', 'off', true)`);
    }
    return tx
      .select({
        product: summaryColumns(),
        faceRange,
        total: sql<number>`(count(*) OVER ())::int`,
      })
      .from(products)
      .where(filters.length ? and(...filters) : undefined)
      .orderBy(...order)
      .limit(q.pageSize)
      .offset(q.offset ?? (q.page - 1) * q.pageSize);
  };
  const rows = tokens.length > 0 ? await db.transaction((tx) => run(tx as unknown as Db)) : await run(db);

  const items = rows.map(({ product, faceRange }) => {
    const faces: bigint[] = faceRange ? faceRange.split(":").map(BigInt) : [];
    if (product.rangeMinMinor !== null) faces.push(product.rangeMinMinor);
    if (product.rangeMaxMinor !== null) faces.push(product.rangeMaxMinor);
    // Pricing rises with face value, so the cheapest and dearest faces give the price range.
    const { min, max } = minMax(faces);
    const price = productPricer(product.currency);
    return toSummary(product, min === null ? null : price(min), max === null ? null : price(max));
  });
  const skipped = q.offset ?? (q.page - 1) * q.pageSize;
  return { items, total: rows[0]?.total ?? (skipped > 0 ? await countOnly() : 0), page: q.page, pageSize: q.pageSize, tokens };

  // Past the last page the window count is missing: count separately so paging still knows the total.
  async function countOnly(): Promise<number> {
    const r = await search({ ...q, page: 1, offset: undefined, pageSize: 1 }, db);
    return r.total;
  }
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

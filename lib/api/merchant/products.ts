import { usdcToCents } from "@/lib/platform/money";
import { and, eq, sql } from "drizzle-orm";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { z } from "zod";
import { countryName, getProducts, searchIds, type Product, type ProductKind, currencyExponent } from "@/lib/catalog";
import type { Db } from "@/lib/platform/db";
import { products } from "@/lib/platform/db/schema";
import { queryRefusal } from "@/lib/platform/http/query";
import { invalidParam, missingParam, V2Error } from "./envelope";
import { nextOffsetPage } from "./paging";
import { searchText, type ListQuery } from "./schemas";

export { listQuery, type ListQuery } from "./schemas";

/** The merchant API's product types: our `topup` is its `phone_refill`. */
export const TYPE_OF_KIND: Record<ProductKind, "gift_card" | "phone_refill" | "esim"> = { gift_card: "gift_card", topup: "phone_refill", esim: "esim" };
const KIND_OF_TYPE = { gift_card: "gift_card", phone_refill: "topup", esim: "esim" } as const satisfies Record<string, ProductKind>;

/**
 * What the merchant pays for a package, in US cents: its USDC price (1 USDC = 1 USD). Test products cost their
 * price too, so that a test purchase moves the balance and a failing test product shows its refund, exactly as a
 * real one would (the admin API credits a new merchant to try them).
 */
export const merchantPriceCents = (_product: Pick<Product, "isTest">, priceUsdc: bigint) => usdcToCents(priceUsdc);

/** A product in the shape existing clients of the merchant API read. */
export function merchantProduct(p: Product, origin: string) {
  const range = p.range;
  return {
    id: p.slug,
    name: p.name,
    type: TYPE_OF_KIND[p.kind],
    brand: p.brand,
    country_code: p.country ?? (p.coverage.length === 1 ? p.coverage[0] : null),
    country_name: p.country ? countryName(p.country) : (p.region ?? null),
    currency: p.currency,
    categories: p.categories,
    created_time: p.createdAt.toISOString(),
    recipient_type: p.recipientType,
    image: new URL(p.image, origin).toString(),
    in_stock: p.inStock,
    is_test: p.isTest,
    description: p.description,
    redemption_instructions: p.redemptionInstructions,
    packages: p.packages.map((pk) => ({
      id: pk.id,
      package_id: pk.id,
      value: pk.value,
      amount: Number(pk.faceValue),
      price: Number(merchantPriceCents(p, pk.priceUsdc)),
      in_stock: p.inStock && (pk.stock === null || pk.stock > 0),
      ...(pk.dataMb !== null || pk.validityDays !== null ? { data_mb: pk.dataMb, validity_days: pk.validityDays } : {}),
    })),
    ...(range
      ? {
          range: {
            min: Number(range.min),
            max: Number(range.max),
            step: Number(range.step),
            // US dollars per unit of the product's currency, margin included: at the range's low end (where rounding
            // up to the cent weighs most), itself rounded up to the millionth, so that `amount x price_rate`, rounded
            // up to the cent, is never less than what the amount costs here (a reseller's cost floor holds).
            price_rate: Number((range.minPriceUsdc * 10n ** BigInt(currencyExponent(p.currency) ?? 2) + range.minMinor - 1n) / range.minMinor) / 1e6,
          },
        }
      : {}),
    ...(p.kind === "esim" ? { coverage: p.coverage, region: p.region } : {}),
  };
}

const productJson = new WeakMap<Product, { origin: string; json: string }>();

/**
 * `merchantProduct` as JSON text, kept with the product: the catalog hands out the same product object until an
 * import, new rates or a stock change (see getProducts), so a list serializes each product once per origin.
 */
export function merchantProductJson(p: Product, origin: string): string {
  const held = productJson.get(p);
  if (held && held.origin === origin) return held.json;
  const json = JSON.stringify(merchantProduct(p, origin));
  productJson.set(p, { origin, json });
  return json;
}

/** Reads a query string with a schema; the first problem becomes `invalid_param` naming the parameter and its rule. */
export function readQuery<S extends z.ZodObject>(url: URL, schema: S): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (v !== "") raw[k] = v;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const { param, rule } = queryRefusal(schema, parsed.error.issues);
    throw invalidParam(param, rule);
  }
  return parsed.data;
}

/** One page of whole products for a list query (optionally a text search), with `meta` in the clients' shape. */
export async function productPage(db: Db, url: URL, origin: string, q: ListQuery & { q?: string; forceKind?: ProductKind }) {
  const kind = q.forceKind ?? (q.type ? KIND_OF_TYPE[q.type] : undefined);
  const found = await searchIds(
    { q: q.q, kind, country: q.country, category: q.category, region: q.region, includeTest: q.include_test_products, offset: q.start, pageSize: q.limit },
    db,
  );
  const items = await getProducts(found.ids, db);
  // On the public origin (behind a proxy the request's own URL may be an internal one).
  const next = nextOffsetPage(url, origin, { start: q.start, limit: q.limit, count: items.length, total: found.total });
  return {
    /** Each product as JSON text (merchantProductJson): the route answers them with `okJson`. */
    data: items.map((p) => merchantProductJson(p, origin)),
    meta: {
      start: q.start,
      limit: q.limit,
      count: items.length,
      total: found.total,
      include_test_products: String(q.include_test_products),
      ...(next ? { _next: next } : {}),
      ...(items.length === 0 && q.q !== undefined ? { hint: "No product matches. Try a brand (Steam), a country (Japan), or fewer words." } : {}),
    },
  };
}

export function requireSearchText(url: URL): string {
  const q = url.searchParams.get("q");
  if (q === null) throw missingParam("q");
  const parsed = searchText.safeParse(q);
  if (!parsed.success) throw invalidParam("q", parsed.error.issues[0]?.message ?? "invalid");
  return parsed.data;
}

/** Operators (top-up products) that serve a phone number, by their number prefixes. */
export async function operatorsFor(db: Db, e164: string): Promise<{ id: string; name: string; country_code: string | null }[]> {
  const rows = await db
    .select({ id: products.id, name: products.name, brand: products.brand, country: products.country })
    .from(products)
    .where(
      and(eq(products.kind, "topup"), eq(products.isTest, false), sql`EXISTS (SELECT 1 FROM unnest(${products.phonePrefixes}) p WHERE ${e164} LIKE p || '%')`),
    )
    .orderBy(products.name);
  return rows.map((r) => ({ id: r.id, name: r.brand, country_code: r.country }));
}

/** A phone number as E.164, or `invalid_phone_number`. */
export function e164(input: string | null): string {
  if (input === null || input.trim() === "") throw missingParam("phone_number");
  const phone = parsePhoneNumberFromString(input.trim());
  if (!phone || !phone.isValid())
    throw new V2Error(400, "invalid_phone_number", "Invalid phone number: use E.164 format, a + and the country code, like +14155550134.");
  return phone.number;
}

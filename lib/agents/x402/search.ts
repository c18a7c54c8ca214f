import { countryLabel, search, type ProductKind, type ProductSummary } from "@/lib/catalog";
import { usdcToDecimal } from "@/lib/platform/money";
import { invalidQuery, jsonResponse } from "@/lib/platform/http/api-error";
import { withX402Fee, nextStep, x402SearchQuery } from "@/lib/api/x402";

export function parseSearchQuery(url: URL) {
  const raw = Object.fromEntries([...url.searchParams.entries()].filter(([k]) => ["q", "country", "region", "page", "limit"].includes(k)));
  const parsed = x402SearchQuery.safeParse(raw);
  if (!parsed.success) throw invalidQuery(x402SearchQuery, parsed.error.issues);
  return parsed.data;
}

function productEntry(p: ProductSummary, origin: string) {
  return {
    slug: p.slug,
    name: p.name,
    brand: p.brand,
    country: p.country,
    coverage: p.coverage,
    region: p.region,
    where: countryLabel(p),
    currency: p.currency,
    in_stock: p.inStock,
    price_from_usd: p.priceFromUsdc === null ? null : usdcToDecimal(p.priceFromUsdc),
    price_to_usd: p.priceToUsdc === null ? null : usdcToDecimal(p.priceToUsdc),
    image: new URL(p.image, origin).toString(),
    next_step: nextStep(origin, "GET", `/x402/products/detail?slug=${encodeURIComponent(p.slug)}`),
  };
}

/** The body of the three /x402 search routes. */
export async function searchResponse(kind: ProductKind, url: URL, origin: string) {
  const q = parseSearchQuery(url);
  const result = await search({ q: q.q ?? "*", kind, country: q.country, region: q.region, page: q.page, pageSize: q.limit });
  const products = result.items.map((p) => productEntry(p, origin));
  const first = products[0];
  return {
    query: { q: q.q ?? "*", kind, country: q.country ?? null, region: q.region ?? null },
    total: result.total,
    page: result.page,
    limit: result.pageSize,
    products,
    ...(products.length === 0 ? { hint: "No products match. Try a brand name, a country name, or q=* with a country code to browse." } : {}),
    next_step: first ? first.next_step : nextStep(origin, "GET", `${url.pathname}?q=*`),
  };
}

const SEARCH_ROUTES = { gift_card: "giftCardSearch", esim: "esimSearch", topup: "topupSearch" } as const;

/** The GET handler of one of the three search routes. */
export function x402SearchRoute(kind: ProductKind) {
  return withX402Fee(
    SEARCH_ROUTES[kind],
    async (req, { origin }) => jsonResponse(await searchResponse(kind, new URL(req.url), origin)),
    (req) => void parseSearchQuery(new URL(req.url)),
  );
}

import { and, eq, isNull } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/platform/db";
import { fxRates, productPackages, products } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import { issueSessionToken } from "@/lib/identity";
import { createMerchant } from "@/lib/merchants";
import { installInProcessPayments, offlineSolanaNetwork } from "@/test/payments";

// A server that starts on a database holding live rates prices with them from its first request, in every bundle of
// the server (a page, each route handler: each has its own copy of the modules, and shares the process's globalThis),
// and never with the shipped table (1.0812 dollars a euro); rates too old to sell refuse the currency from the first
// request too.

vi.hoisted(() => {
  process.env.FX_RATES_URL = "https://rates.example/eurofxref-daily.xml";
  process.env.SESSION_SECRET = "fx-first-request-test-secret-0123456789";
});

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

let restorePayments: (() => void) | undefined;
beforeAll(async () => {
  const base = {
    key: "base",
    kind: "evm",
    network: "eip155:84530998",
    chainId: 84_530_998,
    name: "Base (no chain)",
    rpcUrl: "http://127.0.0.1:9",
    payTo: privateKeyToAccount(generatePrivateKey()).address,
    usdc: { address: "0x4020000000000000000000000000000000005dc0", name: "USD Coin", version: "2", decimals: 6 },
  } as const;
  restorePayments = await installInProcessPayments([base, await offlineSolanaNetwork("Solana (no chain)")]);
});
afterAll(() => restorePayments?.());
afterEach(async () => {
  await database.db.delete(fxRates);
  start();
});

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** Live rates as the scheduler stores them: 1.25 dollars a euro. */
async function storeRates(asOf: string) {
  await database.db.insert(fxRates).values({ asOf, base: "EUR", usdPerUnit: { USD: "1", EUR: "1.25" }, source: process.env.FX_RATES_URL! });
}

/** A server's start: nothing held by the process (globalThis) and no module loaded; the database is as it was. */
function start() {
  const g = globalThis as Record<string, unknown>;
  for (const key of ["__storefrontFx", "__storefrontFxSource", "__storefrontCatalog"]) delete g[key];
  vi.resetModules();
}

/** One bundle of the server: its own copy of every module of ours, the process's globalThis shared. */
async function bundle<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

/** A euro gift card of the demo catalog sold at 15 EUR (priced by face value: no upstream cost). */
async function euroCard() {
  const [row] = await database.db
    .select({ slug: products.id, brand: products.brand, country: products.country })
    .from(products)
    .innerJoin(productPackages, eq(productPackages.productId, products.id))
    .where(
      and(
        eq(products.currency, "EUR"),
        eq(products.kind, "gift_card"),
        eq(products.supplier, "demo"),
        eq(products.isTest, false),
        eq(productPackages.value, "15"),
        isNull(productPackages.costCents),
      ),
    )
    .limit(1);
  if (!row?.country) throw new Error("the demo catalog has no 15 EUR gift card of one country");
  return { ...row, country: row.country };
}

type Card = Awaited<ReturnType<typeof euroCard>>;
type Pkg = { package_value?: string; value?: string; price_usdc?: string; price?: number };

/**
 * What each way to see or buy the card answers for its 15 EUR package, read through its own bundle right after a
 * start: the product page's data, the /x402 search and detail, the MCP tool, the merchant API's list and detail, and
 * invoice creation on /x402 and on the merchant API. A price in dollars, or what refused it.
 */
async function readEverywhere(card: Card): Promise<Record<string, string>> {
  const wallet = { chainId: "eip155:84530998", address: privateKeyToAccount(generatePrivateKey()).address };
  const token = (await issueSessionToken(wallet)).token;
  const merchant = bearerAuth((await createMerchant(database.db, { name: "Rates reader", creditCents: 10_000n })).api_token);
  const x402 = (path: string, init: RequestInit = {}) =>
    new Request(`http://shop.test${path}`, { ...init, headers: { "X-Access-Token": token, "Content-Type": "application/json", ...init.headers } });
  const fifteen = (pkgs: Pkg[]) => pkgs.find((p) => (p.package_value ?? p.value) === "15");
  const seen: Record<string, string> = {};

  seen.page = await bundle(async () => {
    const [{ getProduct }, { exchangeRate }] = await Promise.all([import("@/lib/catalog"), import("@/components/shop/picker-data")]);
    const product = await getProduct(card.slug);
    if (!product) return "not found";
    const pkg = product.packages.find((p) => p.value === "15")!;
    return `${Number(pkg.priceUsdc) / 1e6} at ${exchangeRate("EUR")?.usdPerUnit}`;
  });
  seen.x402Search = await bundle(async () => {
    const { X402_HANDLERS } = await import("@/lib/agents/x402/handlers");
    const res = await X402_HANDLERS.giftCardSearch(x402(`/x402/gift-cards/search?q=${encodeURIComponent(card.brand)}&country=${card.country}&limit=50`));
    const body = (await res.json()) as { products: { slug: string; price_from_usd: string; price_to_usd: string }[] };
    const found = body.products.find((p) => p.slug === card.slug);
    return found ? `listed ${found.price_from_usd}-${found.price_to_usd}` : "not listed";
  });
  seen.x402Detail = await bundle(async () => {
    const { X402_HANDLERS } = await import("@/lib/agents/x402/handlers");
    const res = await X402_HANDLERS.productDetail(x402(`/x402/products/detail?slug=${card.slug}`));
    const body = (await res.json()) as { packages?: Pkg[]; code?: string };
    return res.ok ? fifteen(body.packages!)!.price_usdc! : `${res.status} ${body.code}`;
  });
  seen.mcp = await bundle(async () => {
    const { POST } = await import("@/app/mcp/route");
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_product", arguments: { slug: card.slug, access_token: token } } };
    const res = await POST(
      new Request("http://localhost/mcp", {
        method: "POST",
        // The Host a client sends (the route refuses a foreign one, lib/agents/mcp/server.ts mcpAllowed).
        headers: { Host: "localhost", "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify(call),
      }),
    );
    const { result } = (await res.json()) as { result: { isError?: boolean; structuredContent?: { packages?: Pkg[]; code?: string } } };
    const content = result.structuredContent;
    return result.isError ? `error ${content?.code}` : fifteen(content!.packages!)!.price_usdc!;
  });
  seen.merchantList = await bundle(async () => {
    const { GET } = await import("@/app/api/v2/products/search/route");
    const res = await callRoute(GET, `/api/v2/products/search?q=${encodeURIComponent(card.brand)}&country=${card.country}&limit=50`, { headers: merchant });
    if (res.status !== 200) return `${res.status} ${res.body.error_code}`;
    const found = (res.body.data as { id: string; packages: Pkg[] }[]).find((p) => p.id === card.slug);
    return found ? `${fifteen(found.packages)!.price! / 100}` : "not listed";
  });
  seen.merchantDetail = await bundle(async () => {
    const { GET } = await import("@/app/api/v2/products/[id]/route");
    const res = await callRoute(GET, `/api/v2/products/${card.slug}`, { headers: merchant, params: { id: card.slug } });
    return res.status === 200 ? `${fifteen((res.body.data as { packages: Pkg[] }).packages)!.price! / 100}` : `${res.status} ${res.body.error_code}`;
  });
  seen.x402Invoice = await bundle(async () => {
    const { X402_HANDLERS } = await import("@/lib/agents/x402/handlers");
    const body = JSON.stringify({ items: [{ product_id: card.slug, package_value: "15" }] });
    const res = await X402_HANDLERS.invoiceCreate(x402("/x402/invoice/create", { method: "POST", body }));
    const json = (await res.json()) as { price_usdc?: string; code?: string };
    return res.ok ? json.price_usdc! : `${res.status} ${json.code}`;
  });
  seen.merchantInvoice = await bundle(async () => {
    const { POST } = await import("@/app/api/v2/invoices/route");
    const res = await callRoute(POST, "/api/v2/invoices", {
      headers: merchant,
      body: { products: [{ product_id: card.slug, value: 15 }], payment_method: "balance" },
    });
    return res.status === 200 ? `${(res.body.data as { payment: { price: number } }).payment.price / 100}` : `${res.status} ${res.body.error_code}`;
  });
  return seen;
}

describe(`prices from the first request after a start on ${testDriver}`, () => {
  it("prices a 15 EUR card at the stored 1.25 (18.75), never at the shipped 1.0812 (16.22), everywhere at once", async () => {
    const card = await euroCard();
    await storeRates(day(0));
    start();
    const seen = await readEverywhere(card);
    // The search lists the card's range; at 1.25 its 15 EUR package is in it.
    expect(seen.x402Search).toMatch(/^listed /);
    const [from, to] = seen.x402Search!.slice("listed ".length).split("-").map(Number);
    expect(from! <= 18.75 && 18.75 <= to!, seen.x402Search).toBe(true);
    expect({ ...seen, x402Search: "listed" }).toEqual({
      page: "18.75 at 1.25",
      x402Search: "listed",
      x402Detail: "18.75",
      mcp: "18.75",
      merchantList: "18.75",
      merchantDetail: "18.75",
      x402Invoice: "18.75",
      merchantInvoice: "18.75",
    });
  });

  it("refuses the euro everywhere at once when the stored rates are too old (FX_MAX_AGE_HOURS), never selling at the table", async () => {
    const card = await euroCard();
    await storeRates(day(6));
    start();
    expect(await readEverywhere(card)).toEqual({
      page: "not found",
      x402Search: "not listed",
      x402Detail: "404 PRODUCT_NOT_FOUND",
      mcp: "error PRODUCT_NOT_FOUND",
      merchantList: "not listed",
      merchantDetail: "404 not_found",
      x402Invoice: "400 UNKNOWN_PRODUCT",
      merchantInvoice: "404 not_found",
    });
  });
});

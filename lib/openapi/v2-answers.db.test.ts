/**
 * Every answer the merchant API's OpenAPI document lists, provoked through the route handlers: each route's success,
 * each error code of each route, and the common 401, 403, 429 and 500 on every route. `callRoute` checks each answer
 * against its documented schema; the last test checks that nothing listed went untried.
 */
import { createHash } from "node:crypto";
import { eq, isNotNull } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { catalogChanged } from "@/lib/catalog";
import { GET as balance } from "@/app/api/v2/accounts/balance/route";
import { GET as checkPhone } from "@/app/api/v2/check_phone_number/route";
import { GET as getEsim } from "@/app/api/v2/esims/[id]/route";
import { POST as payEsimInvoice } from "@/app/api/v2/esims/invoice/[id]/pay/route";
import { GET as getEsimInvoice } from "@/app/api/v2/esims/invoice/[id]/route";
import { GET as listEsims, POST as createEsimInvoice } from "@/app/api/v2/esims/route";
import { POST as payInvoice } from "@/app/api/v2/invoices/[id]/pay/route";
import { GET as getInvoice } from "@/app/api/v2/invoices/[id]/route";
import { GET as listInvoices, POST as createInvoice } from "@/app/api/v2/invoices/route";
import { GET as getOrder } from "@/app/api/v2/orders/[id]/route";
import { GET as listOrders } from "@/app/api/v2/orders/route";
import { GET as ping } from "@/app/api/v2/ping/route";
import { GET as getProduct } from "@/app/api/v2/products/[id]/route";
import { GET as getEsimProduct } from "@/app/api/v2/products/esims/[id]/route";
import { GET as listEsimProducts } from "@/app/api/v2/products/esims/route";
import { GET as listProducts } from "@/app/api/v2/products/route";
import { GET as searchProducts } from "@/app/api/v2/products/search/route";
import { POST as redeliver } from "@/app/api/v2/webhooks/deliveries/[id]/redeliver/route";
import { GET as getDelivery } from "@/app/api/v2/webhooks/deliveries/[id]/route";
import { GET as listDeliveries } from "@/app/api/v2/webhooks/deliveries/route";
import { GET as getBatch } from "@/app/api/v2/gift-card-batches/[id]/route";
import { GET as listBatches, POST as createBatch } from "@/app/api/v2/gift-card-batches/route";
import { basicAuth, bearerAuth, callRoute } from "@/test/merchant-api";
import { installPeerAddress, PEER_HEADER } from "@/lib/platform/http/peer-address";
import type { Database } from "@/lib/platform/db";
import { idempotencyKeys, products } from "@/lib/platform/db/schema";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { captureLog } from "@/test/log";
import { createMerchant, setMerchantAccess, type NewMerchant } from "@/lib/merchants";
import { getRateLimiter, MERCHANT_LIMITS, type MerchantRouteId } from "@/lib/platform/ratelimit";
import { drainWebhooks } from "@/lib/webhooks";
import { documentedAnswers, V2_OPERATIONS } from "./v2";

type Handler = Parameters<typeof callRoute>[0];

/** The handler of each documented operation. */
const HANDLERS: Record<string, Handler> = {
  "GET /ping": ping,
  "GET /accounts/balance": balance,
  "GET /products": listProducts,
  "GET /products/search": searchProducts,
  "GET /products/{id}": getProduct,
  "GET /products/esims": listEsimProducts,
  "GET /products/esims/{id}": getEsimProduct,
  "GET /check_phone_number": checkPhone,
  "POST /invoices": createInvoice,
  "GET /invoices": listInvoices,
  "GET /invoices/{id}": getInvoice,
  "POST /invoices/{id}/pay": payInvoice,
  "GET /orders": listOrders,
  "GET /orders/{id}": getOrder,
  "POST /esims": createEsimInvoice,
  "GET /esims": listEsims,
  "GET /esims/{id}": getEsim,
  "GET /esims/invoice/{id}": getEsimInvoice,
  "POST /esims/invoice/{id}/pay": payEsimInvoice,
  "GET /webhooks/deliveries": listDeliveries,
  "GET /webhooks/deliveries/{id}": getDelivery,
  "POST /webhooks/deliveries/{id}/redeliver": redeliver,
  "POST /gift-card-batches": createBatch,
  "GET /gift-card-batches": listBatches,
  "GET /gift-card-batches/{id}": getBatch,
};

let database: Database;
const seen = new Set<string>();

processTestDatabase((d) => (database = d), withTestCatalog);

type Json = { data?: unknown; error_code?: string };

/**
 * Calls `route` ("POST /invoices/{id}/pay") with `{id}` filled in and `query` appended; records what it answered and
 * checks the status (and error code) expected.
 */
async function hit(
  m: { headers: Record<string, string> },
  route: string,
  expected: number | `${number} ${string}`,
  opts: { id?: string; query?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const [method, template] = route.split(" ") as [string, string];
  const handler = HANDLERS[route];
  if (!handler) throw new Error(`No handler for ${route}`);
  const path = `/api/v2${template.replace("{id}", encodeURIComponent(opts.id ?? "x"))}${opts.query ? `?${opts.query}` : ""}`;
  const res = await callRoute(handler, path, {
    method,
    headers: { ...m.headers, ...opts.headers },
    body: opts.body,
    params: opts.id === undefined ? {} : { id: opts.id },
  });
  const body = res.body as Json;
  const got = body.error_code ? `${res.status} ${body.error_code}` : `${res.status}`;
  expect(got, `${route}${opts.query ? `?${opts.query}` : ""}`).toBe(String(expected));
  seen.add(`${route} ${got}`);
  return body;
}

async function merchant(creditUsd: number) {
  const m: NewMerchant = await createMerchant(database.db, { name: "Answers", creditCents: BigInt(creditUsd * 100) });
  return { ...m, headers: basicAuth(m.api_id, m.api_secret) };
}

const gift = (extra: Record<string, unknown> = {}) => ({ products: [{ product_id: "test-gift-card-code", value: 10, ...extra }], payment_method: "balance" });
/** The routes whose unexpected failure is the spec's create_invoice_failed. */
const CREATION_ROUTES = ["POST /invoices", "POST /esims"];
/** The spec's code for a gift card batch that could not be created. */
const failureOf = (route: string) =>
  CREATION_ROUTES.includes(route) ? "500 create_invoice_failed" : route === "POST /gift-card-batches" ? "500 batch_creation_failed" : "500 internal_error";

const esim = { products: [{ product_id: "test-esim-product", value: "1GB, 7 Days" }], payment_method: "balance" };

describe(`every documented answer of the merchant API, on ${testDriver}`, () => {
  it("answers the catalog routes and their errors", async () => {
    const m = await merchant(0);
    await hit(m, "GET /ping", 200);
    await hit(m, "GET /accounts/balance", 200);
    await hit(m, "GET /products", 200, { query: "limit=2&include_test_products=true" });
    await hit(m, "GET /products", "400 invalid_param", { query: "limit=0" });
    // A number that is none names the parameter and its rule (lib/platform/http/query.ts), not the validator's text.
    expect(await hit(m, "GET /products", "400 invalid_param", { query: "limit=abc" })).toMatchObject({
      message: "Invalid parameter limit: must be a whole number from 1 to 50",
    });
    await hit(m, "GET /products/search", 200, { query: "q=steam&limit=2" });
    await hit(m, "GET /products/search", "400 missing_param");
    await hit(m, "GET /products/search", "400 invalid_param", { query: `q=${"a".repeat(101)}` });
    await hit(m, "GET /products/{id}", 200, { id: "test-gift-card-code" });
    await hit(m, "GET /products/{id}", "404 not_found", { id: "no-such-product" });
    await hit(m, "GET /products/esims", 200, { query: "limit=2" });
    await hit(m, "GET /products/esims", "400 invalid_param", { query: "country=USA" });
    await hit(m, "GET /products/esims/{id}", 200, { id: "test-esim-product" });
    await hit(m, "GET /products/esims/{id}", "404 not_found", { id: "test-gift-card-code" });
    await hit(m, "GET /check_phone_number", 200, { query: "phone_number=%2B14155550134" });
    await hit(m, "GET /check_phone_number", "400 missing_param");
    await hit(m, "GET /check_phone_number", "400 invalid_phone_number", { query: "phone_number=%2B1" });
    await hit(m, "GET /check_phone_number", "400 unsupported_operator", { query: "phone_number=%2B14155550134&operator=test-gift-card-code" });
  });

  it("answers every refusal of invoice creation, on both creation routes", async () => {
    const m = await merchant(100);
    const [ranged] = await database.db
      .select({ id: products.id, max: products.rangeMaxMinor })
      .from(products)
      .where(isNotNull(products.rangeMaxMinor))
      .limit(1);
    expect(ranged).toBeDefined();

    for (const route of ["POST /invoices", "POST /esims"] as const) {
      const item = route === "POST /esims" ? esim.products[0]! : gift().products[0]!;
      const body = (extra: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => ({
        products: [{ ...item, ...extra }],
        payment_method: "balance",
        ...more,
      });
      await hit(m, route, 200, { body: body() });
      await hit(m, route, "400 parse_error", { body: "{not json" });
      await hit(m, route, "400 missing_param", { body: { payment_method: "balance" } });
      await hit(m, route, "400 invalid_param", { body: { products: "all", payment_method: "balance" } });
      await hit(m, route, "400 invalid_quantity", { body: body({ quantity: 0 }) });
      await hit(m, route, "400 too_many_items", { body: body({ quantity: 21 }) });
      await hit(m, route, "400 unsupported_payment_method", { body: body({}, { payment_method: "bitcoin" }) });
      await hit(m, route, "400 invalid_package_id", { body: body({ value: "7 apples" }) });
      await hit(m, route, "404 not_found", { body: body({ product_id: "no-such-product" }) });
      await hit(m, route, "402 balance_too_low", { body: body({ quantity: 20 }, { auto_pay: true }) });
      const key = route.replace(/\W+/g, "-");
      await hit(m, route, 200, { body: body(), headers: { "Idempotency-Key": `${key}-a` } });
      await hit(m, route, "422 idempotency_key_reused", { body: body({ quantity: 2 }), headers: { "Idempotency-Key": `${key}-a` } });
      // A first request with this key that is still running (another process is creating its invoice).
      const requestHash = createHash("sha256").update(JSON.stringify(body())).digest("hex");
      await database.db.insert(idempotencyKeys).values({ merchantId: m.merchant_id, key: `${key}-busy`, endpoint: route, requestHash });
      await hit(m, route, "409 idempotency_key_in_use", { body: body(), headers: { "Idempotency-Key": `${key}-busy` } });
      // As an import would mark it (and tell this process's catalog at once).
      await database.db.update(products).set({ inStock: false, updatedAt: new Date() }).where(eq(products.id, item.product_id));
      catalogChanged(database.db);
      await hit(m, route, "409 out_of_stock", { body: body() });
      await database.db.update(products).set({ inStock: true, updatedAt: new Date() }).where(eq(products.id, item.product_id));
      catalogChanged(database.db);
    }
    // An amount outside a product's range; an eSIM invoice over the most one USDC payment takes (from the balance it
    // is taken); the phone checks (eSIMs take no phone number).
    await hit(m, "POST /invoices", "400 invalid_value", {
      body: { products: [{ product_id: ranged!.id, value: Number(ranged!.max) }], payment_method: "balance" },
    });
    const overUsdc = { products: [{ product_id: "test-esim-product", value: "Unlimited, 30 Days", quantity: 11 }] };
    await hit(m, "POST /esims", "400 unsupported_payment_method", { body: { ...overUsdc, payment_method: "usdc_base" } });
    await hit(m, "POST /esims", 200, { body: { ...overUsdc, payment_method: "balance" } });
    await hit(m, "POST /invoices", "400 invalid_phone_number", {
      body: { products: [{ product_id: "test-phone-refill", value: 10, phone_number: "+1" }], payment_method: "balance" },
    });
    await hit(m, "POST /invoices", "400 unsupported_operator", {
      body: { products: [{ product_id: "test-phone-refill", value: 10, phone_number: "+33612345678" }], payment_method: "balance" },
    });
    await hit(m, "POST /esims", "400 invalid_param", { body: gift() });
  });

  it("answers invoices, orders, eSIMs and their refusals", async () => {
    const m = await merchant(100);
    const poor = await merchant(0);
    const paid = (await hit(m, "POST /invoices", 200, { body: { ...gift(), auto_pay: true } })).data as { id: string; orders: { id: string }[] };
    const unpaid = (await hit(poor, "POST /invoices", 200, { body: gift() })).data as { id: string };
    await hit(m, "GET /invoices", 200, { query: "limit=1" });
    await hit(m, "GET /invoices", "400 invalid_param", { query: "after=nope" });
    await hit(m, "GET /invoices/{id}", 200, { id: paid.id });
    await hit(m, "GET /invoices/{id}", "404 not_found", { id: unpaid.id });
    await hit(m, "POST /invoices/{id}/pay", "409 invoice_not_payable", { id: paid.id });
    await hit(m, "POST /invoices/{id}/pay", "404 not_found", { id: "inv_nope" });
    await hit(poor, "POST /invoices/{id}/pay", "402 balance_too_low", { id: unpaid.id });
    const later = (await hit(m, "POST /invoices", 200, { body: gift() })).data as { id: string };
    await hit(m, "POST /invoices/{id}/pay", 200, { id: later.id });

    await drainDue(database.db);
    await hit(m, "GET /orders", 200, { query: "limit=1" });
    await hit(m, "GET /orders", "400 invalid_param", { query: "limit=500" });
    expect(await hit(m, "GET /orders", "400 invalid_param", { query: "start=abc" })).toMatchObject({
      message: "Invalid parameter start: must be a whole number from 0 to 1000000",
    });
    await hit(m, "GET /orders/{id}", 200, { id: paid.orders[0]!.id });
    await hit(m, "GET /orders/{id}", "404 not_found", { id: "ord_nope" });

    const esimInvoice = (await hit(m, "POST /esims", 200, { body: esim })).data as { id: string };
    const poorEsim = (await hit(poor, "POST /esims", 200, { body: esim })).data as { id: string };
    await hit(m, "GET /esims/invoice/{id}", 200, { id: esimInvoice.id });
    await hit(m, "GET /esims/invoice/{id}", "404 not_found", { id: poorEsim.id });
    await hit(m, "POST /esims/invoice/{id}/pay", 200, { id: esimInvoice.id });
    await hit(m, "POST /esims/invoice/{id}/pay", "409 invoice_not_payable", { id: esimInvoice.id });
    await hit(m, "POST /esims/invoice/{id}/pay", "404 not_found", { id: "inv_nope" });
    await hit(poor, "POST /esims/invoice/{id}/pay", "402 balance_too_low", { id: poorEsim.id });
    await drainDue(database.db);
    const esims = (await hit(m, "GET /esims", 200)).data as { iccid: string }[];
    await hit(m, "GET /esims", "400 invalid_param", { query: "start=-1" });
    expect(esims).toHaveLength(1);
    await hit(m, "GET /esims/{id}", 200, { id: esims[0]!.iccid });
    await hit(m, "GET /esims/{id}", "404 not_found", { id: "8900000000000000000" });
  });

  it("answers the webhook delivery log and redelivery", async () => {
    const m = await merchant(100);
    // Nothing listens on port 9: every attempt fails, and the log shows it.
    await hit(m, "POST /invoices", 200, { body: { ...gift(), auto_pay: true, webhook_url: "http://127.0.0.1:9/hook" } });
    await drainDue(database.db);
    await drainWebhooks(database.db);
    const log = (await hit(m, "GET /webhooks/deliveries", 200)).data as { id: string }[];
    expect(log).toHaveLength(1);
    await hit(m, "GET /webhooks/deliveries", "400 invalid_param", { query: "status=lost" });
    await hit(m, "GET /webhooks/deliveries/{id}", 200, { id: log[0]!.id });
    await hit(m, "GET /webhooks/deliveries/{id}", "404 not_found", { id: "msg_nope" });
    await hit(m, "POST /webhooks/deliveries/{id}/redeliver", 200, { id: log[0]!.id });
    await hit(m, "POST /webhooks/deliveries/{id}/redeliver", "404 not_found", { id: "msg_nope" });
  });

  it("answers the gift card batch routes and their errors", async () => {
    const m = await merchant(100);
    const batch = { quantity: 2, value: 5, currency: "USD" };
    const made = (await hit(m, "POST /gift-card-batches", 200, { body: batch })).data as { id: string; cards: unknown[] };
    expect(made.cards).toHaveLength(2);
    await hit(m, "POST /gift-card-batches", "400 parse_error", { body: "{not json" });
    await hit(m, "POST /gift-card-batches", "400 missing_param", { body: { quantity: 2, value: 5 } });
    await hit(m, "POST /gift-card-batches", "400 invalid_param", { body: batch, headers: { "Idempotency-Key": "\u00e9" } });
    await hit(m, "POST /gift-card-batches", "400 invalid_quantity", { body: { ...batch, quantity: 1001 } });
    await hit(m, "POST /gift-card-batches", "400 invalid_value", { body: { ...batch, value: "0.001" } });
    await hit(m, "POST /gift-card-batches", "400 invalid_currency", { body: { ...batch, currency: "XYZ" } });
    await hit(m, "POST /gift-card-batches", "402 balance_too_low", { body: { ...batch, quantity: 100 } });
    await hit(m, "POST /gift-card-batches", 200, { body: batch, headers: { "Idempotency-Key": "batch-a" } });
    await hit(m, "POST /gift-card-batches", "422 idempotency_key_reused", { body: { ...batch, quantity: 3 }, headers: { "Idempotency-Key": "batch-a" } });
    const requestHash = createHash("sha256").update(JSON.stringify(batch)).digest("hex");
    await database.db.insert(idempotencyKeys).values({ merchantId: m.merchant_id, key: "batch-busy", endpoint: "POST /gift-card-batches", requestHash });
    await hit(m, "POST /gift-card-batches", "409 idempotency_key_in_use", { body: batch, headers: { "Idempotency-Key": "batch-busy" } });
    await hit(m, "GET /gift-card-batches", 200, { query: "limit=1" });
    await hit(m, "GET /gift-card-batches", "400 invalid_param", { query: "limit=0" });
    await hit(m, "GET /gift-card-batches/{id}", 200, { id: made.id });
    await hit(m, "GET /gift-card-batches/{id}", "404 not_found", { id: "gcb_nope" });
    // Another merchant's batch is not found either.
    await hit(await merchant(0), "GET /gift-card-batches/{id}", "404 not_found", { id: made.id });
  });

  it("refuses every route without valid credentials (401), to a suspended account (403), and past its limit (429)", async () => {
    const m = await merchant(0);
    const suspended = await merchant(0);
    await setMerchantAccess(database.db, suspended.merchant_id, { status: "suspended" });
    const limiter = await getRateLimiter();
    for (const op of V2_OPERATIONS) {
      const route = `${op.method.toUpperCase()} ${op.path}`;
      const id = op.path.includes("{id}") ? "x" : undefined;
      const body = op.method === "post" && !id ? gift() : undefined;
      await hit({ headers: basicAuth("ak_nobody", "sk_nothing") }, route, "401 unauthorized", { id, body });
      await hit({ headers: bearerAuth(suspended.api_token) }, route, "403 forbidden", { id, body });
      // The limit spent without running the route, then one more request.
      for (let i = 0; i < MERCHANT_LIMITS[route as MerchantRouteId].points; i++) await limiter.consume(route as MerchantRouteId, m.merchant_id);
      await hit(m, route, "429 too_many_requests", { id, body });
    }
  });

  it("answers an unexpected failure on every route with 500: create_invoice_failed on the creation routes, internal_error on the others", async () => {
    const m = await merchant(0);
    const limiter = await getRateLimiter();
    // A request no credential counted is counted against its client's address: here one of its own, not the
    // loopback budget the 401s and 403s above spent.
    installPeerAddress();
    const client = { [PEER_HEADER]: "198.51.100.77" };
    const logged = captureLog();
    try {
      for (const op of V2_OPERATIONS) {
        const route = `${op.method.toUpperCase()} ${op.path}`;
        const id = op.path.includes("{id}") ? "x" : undefined;
        const body = op.method === "post" && !id ? gift() : undefined;
        vi.spyOn(limiter, "consume").mockRejectedValueOnce(new Error("the limit store broke"));
        const answer = await hit(m, route, failureOf(route), { id, body, headers: client });
        expect(JSON.stringify(answer), route).not.toContain("limit store");
      }
    } finally {
      logged.restore();
      vi.restoreAllMocks();
    }
    expect(logged.lines.filter((l) => l.msg === "merchant API request failed")).toHaveLength(V2_OPERATIONS.length);
  });

  it("answers 503 service_unavailable with Retry-After on every route while the database is unreachable, never 500", async () => {
    const m = await merchant(0);
    const limiter = await getRateLimiter();
    installPeerAddress();
    const client = { [PEER_HEADER]: "198.51.100.78" };
    try {
      for (const op of V2_OPERATIONS) {
        const route = `${op.method.toUpperCase()} ${op.path}`;
        const id = op.path.includes("{id}") ? "x" : undefined;
        const body = op.method === "post" && !id ? gift() : undefined;
        // What the PostgreSQL driver throws when the server ends the session (a restart, a failover).
        vi.spyOn(limiter, "consume").mockRejectedValueOnce(new Error("Connection terminated unexpectedly"));
        await hit(m, route, "503 service_unavailable", { id, body, headers: client });
      }
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("answers a body over 64 KB with 413 payload_too_large on every route that reads one", async () => {
    const m = await merchant(0);
    const bodied = V2_OPERATIONS.filter((op) => op.body);
    expect(bodied.length).toBeGreaterThan(0);
    for (const op of bodied) {
      const id = op.path.includes("{id}") ? "x" : undefined;
      await hit(m, `${op.method.toUpperCase()} ${op.path}`, "413 payload_too_large", { id, body: JSON.stringify({ pad: "x".repeat(70_000) }) });
    }
  });

  it("has tried every answer the document lists, and the creation routes never answer the general internal_error", () => {
    const untried = documentedAnswers().filter((a) => !seen.has(a));
    expect(untried).toEqual([]);
    for (const r of CREATION_ROUTES) {
      expect(documentedAnswers()).not.toContain(`${r} 500 internal_error`);
      expect(seen.has(`${r} 500 internal_error`), r).toBe(false);
    }
  });
});

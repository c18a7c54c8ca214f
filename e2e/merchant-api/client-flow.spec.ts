import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { newMerchant, type Json } from "./merchants";
import { devnetNetworks, evmBuyer, evmUsdcBalance, isEvm } from "../x402/devnet-client";

// The merchant API over real HTTP against `next start`, as an existing client uses it: credentials from the admin
// API, ping, balance, the whole catalog paged, a balance purchase to a delivered code, a failing product refunded,
// and a webhook receiver on loopback that fails twice.

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("an existing client's flow: ping, balance, the whole catalog, a purchase to its code, a refund", async ({ baseURL }) => {
  test.setTimeout(60_000);
  const m = await newMerchant(baseURL!, 100);

  const ping = await m.call("/ping");
  expect(ping).toMatchObject({ status: 200, body: { message: "pong", data: { message: "pong" } } });
  expect(ping.headers.get("x-ratelimit-limit")).toBe("1");
  expect(ping.headers.get("ratelimit-policy")).toContain("q=1;w=3");
  const tooSoon = await m.call("/ping");
  expect(tooSoon.status).toBe(429);
  expect(Number(tooSoon.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  // Its health check sends no credentials: a liveness ping, counted per client address (its own account's count spent
  // above does not refuse it); the balance still requires them.
  const health = await fetch(`${baseURL}/api/v2/ping`);
  expect([health.status, await health.json()]).toMatchObject([200, { message: "pong", data: { message: "pong" } }]);
  expect((await fetch(`${baseURL}/api/v2/accounts/balance`)).status).toBe(401);

  expect((await m.call("/accounts/balance", { auth: `Bearer ${m.api_token}` })).body.data).toEqual({ balance: 10_000, currency: "USD" });

  // Follow meta._next through the whole catalog, test products included.
  const ids: string[] = [];
  let next: string | undefined = `${baseURL}/api/v2/products?include_test_products=true&limit=50`;
  while (next) {
    const res = await fetch(next, { headers: { Authorization: m.basic } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { id: string }[]; meta: { _next?: string } };
    ids.push(...body.data.map((p) => p.id));
    next = body.meta._next;
  }
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBeGreaterThan(500);
  expect(ids).toContain("test-gift-card-code");

  const created = await m.call("/invoices", {
    body: {
      products: [
        { product_id: "test-gift-card-code", value: 10 },
        { product_id: "test-gift-card-code-fail", value: 10 },
      ],
      payment_method: "balance",
      auto_pay: true,
    },
  });
  expect(created.status).toBe(200);
  const invoiceId = (created.body.data as { id: string }).id;
  const final = await until(
    async () =>
      (await m.call(`/invoices/${invoiceId}`)).body.data as {
        status: string;
        payment: { status: string };
        orders: { id: string; status: string; refund?: { amount: number } }[];
      },
    (inv) => inv.status === "complete",
  );
  expect(final).toMatchObject({ status: "complete", payment: { status: "paid" } });
  const [delivered, refunded] = final.orders;
  expect(delivered?.status).toBe("delivered");
  expect(refunded).toMatchObject({ status: "refunded", refund: { amount: 1000 } });
  const order = await m.call(`/orders/${delivered!.id}`);
  expect((order.body.data as { redemption_info: { code: string } }).redemption_info.code).toMatch(/^[A-Z0-9-]{8,}$/);
  // 100 credited, 20 paid, 10 refunded.
  expect((await m.call("/accounts/balance", { auth: `Bearer ${m.api_token}` })).body.data).toEqual({ balance: 9_000, currency: "USD" });
});

test("raw HTTP: auth cases and error codes with their statuses", async ({ baseURL }) => {
  const m = await newMerchant(baseURL!, 0);
  expect((await m.call("/accounts/balance", { auth: "Basic bm9wZTpub3Bl" })).status).toBe(401);
  expect((await m.call("/accounts/balance", { auth: `Bearer ${m.api_secret}` })).status).toBe(401);
  expect((await m.call("/accounts/balance", { auth: "Digest abc" })).body.error_code).toBe("unauthorized");
  const low = await m.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true } });
  expect([low.status, low.body.error_code]).toEqual([402, "balance_too_low"]);
  expect(
    (await m.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "lightning" } })).body.error_code,
  ).toBe("unsupported_payment_method");
  const parse = await fetch(`${baseURL}/api/v2/invoices`, {
    method: "POST",
    headers: { Authorization: m.basic, "Content-Type": "application/json" },
    body: "{",
  });
  expect([parse.status, ((await parse.json()) as Json).error_code]).toEqual([400, "parse_error"]);
  expect((await m.call("/products/search")).body.error_code).toBe("missing_param");
  expect((await m.call("/products/no-such-thing")).status).toBe(404);
  // Every answer of the API is JSON with the limit's fields: refused credentials, unknown paths, wrong methods.
  const unauthorized = await fetch(`${baseURL}/api/v2/accounts/balance`);
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.headers.get("x-ratelimit-limit")).toBeTruthy();
  const unknown = await fetch(`${baseURL}/api/v2/no/such/endpoint`, { headers: { Authorization: m.basic } });
  expect([unknown.status, unknown.headers.get("content-type"), ((await unknown.json()) as Json).error_code]).toEqual([
    404,
    "application/json; charset=utf-8",
    "not_found",
  ]);
  expect(unknown.headers.get("x-ratelimit-remaining")).toBeTruthy();
  const wrongMethod = await fetch(`${baseURL}/api/v2/ping`, { method: "DELETE", headers: { Authorization: m.basic } });
  expect([wrongMethod.status, wrongMethod.headers.get("allow"), ((await wrongMethod.json()) as Json).error_code]).toEqual([
    405,
    "GET, HEAD, OPTIONS",
    "method_not_allowed",
  ]);
  expect(wrongMethod.headers.get("x-ratelimit-limit")).toBeTruthy();
  const options = await fetch(`${baseURL}/api/v2/invoices`, { method: "OPTIONS" });
  expect([options.status, options.headers.get("allow")]).toEqual([204, "GET, POST, HEAD, OPTIONS"]);
  expect(options.headers.get("x-ratelimit-limit")).toBeTruthy();
  // What the proxy refuses before routing carries the fields too.
  const broken = await fetch(`${baseURL}/api/v2/ping%FF`, { headers: { Authorization: m.basic } });
  const brokenBody = (await broken.json()) as Json;
  expect([broken.status, brokenBody.error_code, brokenBody.meta]).toEqual([400, "invalid_param", { _endpoint: null }]);
  expect(broken.headers.get("x-ratelimit-limit")).toBeTruthy();
  expect(broken.headers.get("x-request-id")).toBeTruthy();
  // The refusal route the proxy sends it to is public: called with the same path in `url`, it answers the same.
  const named = await fetch(`${baseURL}/api/v2/edge-refusal?url=${encodeURIComponent("/api/v2/ping%FF")}`);
  expect([named.status, await named.json()]).toEqual([400, brokenBody]);
  expect(named.headers.get("x-ratelimit-limit")).toBeTruthy();
  const brokenQuery = await fetch(`${baseURL}/api/v2/products/a%20b?start=%00`);
  expect([brokenQuery.status, await brokenQuery.json()]).toEqual([
    400,
    { meta: { _endpoint: "/products/a%20b" }, error_code: "invalid_param", message: "The query string contains a NUL byte." },
  ]);
  const tooLarge = await fetch(`${baseURL}/api/v2/invoices`, { method: "POST", headers: { Authorization: m.basic }, body: "x".repeat(70_000) });
  expect([tooLarge.status, ((await tooLarge.json()) as Json).error_code]).toEqual([413, "payload_too_large"]);
  expect(tooLarge.headers.get("x-ratelimit-remaining")).toBeTruthy();
  // A request with no problem, named or sent, is no route's: a header claims nothing.
  for (const url of [`${baseURL}/api/v2/edge-refusal?url=%2Fapi%2Fv2%2Fping`, `${baseURL}/api/v2/edge-refusal`]) {
    const none = await fetch(url, { headers: { "x-storefront-edge-refusal": "413 /api/v2/ping" } });
    expect([none.status, ((await none.json()) as Json).error_code], url).toEqual([404, "not_found"]);
    expect(none.headers.get("x-ratelimit-limit"), url).toBeTruthy();
  }
  const head = await fetch(`${baseURL}/api/v2/ping`, { method: "HEAD", headers: { Authorization: m.basic } });
  expect(head.status).not.toBe(405);
});

test("a webhook receiver on loopback that fails twice gets the third delivery, same webhook-id, verifiable signature", async ({ baseURL }) => {
  test.setTimeout(60_000);
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(received.length <= 2 ? 503 : 200).end(received.length <= 2 ? "busy" : "ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/storefront`;
    const m = await newMerchant(baseURL!, 20);
    const created = await m.call("/invoices", {
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true, webhook_url: hook },
    });
    const invoiceId = (created.body.data as { id: string }).id;
    await until(
      async () => received.length,
      (n) => n >= 3,
      40_000,
    );
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const payload = new Webhook(m.webhook_secret).verify(received[2]!.body, received[2]!.headers as Record<string, string>);
    expect(payload).toMatchObject({ id: invoiceId, status: "complete" });
    const log = await m.call(`/webhooks/deliveries?invoice_id=${invoiceId}`);
    expect((log.body.data as { status: string; attempts: number; url: string }[])[0]).toMatchObject({ status: "delivered", attempts: 3, url: hook });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test("a usdc_base invoice is paid through its x402 payment URL by any x402 client; a balance invoice is not", async ({ baseURL }) => {
  test.setTimeout(60_000);
  const m = await newMerchant(baseURL!, 0);
  const created = await m.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" } });
  expect(created.status).toBe(200);
  const inv = created.body.data as {
    id: string;
    payment: {
      method: string;
      status: string;
      network: string;
      amount_usdc: string;
      payment_url: string;
      payment_body: unknown;
      payment_page: string;
      address: string;
    };
  };
  const base = (await devnetNetworks(baseURL!)).filter(isEvm).find((n) => n.network === inv.payment.network)!;
  expect(base.name).toMatch(/^Base/);
  expect(inv.payment).toMatchObject({
    method: "usdc_base",
    status: "unpaid",
    amount_usdc: "10",
    payment_url: `${baseURL}/x402/invoice/pay`,
    payment_body: { invoice_id: inv.id },
    payment_page: `${baseURL}/pay/${inv.id}`,
  });

  // The 402 offers only the invoice's network.
  const challenge = await fetch(inv.payment.payment_url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(inv.payment.payment_body),
  });
  expect(challenge.status).toBe(402);
  const buyer = await evmBuyer(baseURL!, base, "12");
  const paid = await buyer.pay(inv.payment.payment_url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(inv.payment.payment_body),
  });
  expect(paid.status).toBe(200);
  expect(await evmUsdcBalance(base, buyer.account.address)).toBe(2_000_000n);

  const final = await until(
    async () =>
      (await m.call(`/invoices/${inv.id}`)).body.data as {
        status: string;
        payment: { status: string; transaction?: string };
        orders: { id: string; status: string }[];
      },
    (v) => v.status === "complete",
  );
  expect(final).toMatchObject({ status: "complete", payment: { status: "paid", transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
  const order = await m.call(`/orders/${final.orders[0]!.id}`);
  expect((order.body.data as { redemption_info: { code: string } }).redemption_info.code).toMatch(/^[A-Z0-9-]{8,}$/);
  // The merchant's balance was not touched.
  expect((await m.call("/accounts/balance", { auth: `Bearer ${m.api_token}` })).body.data).toEqual({ balance: 0, currency: "USD" });

  // A balance invoice cannot be paid with USDC, and a USDC invoice not from the balance.
  const rich = await newMerchant(baseURL!, 50);
  const byBalance = await rich.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance" } });
  const refused = await fetch(`${baseURL}/x402/invoice/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ invoice_id: (byBalance.body.data as { id: string }).id }),
  });
  expect(refused.status).toBe(409);
  const usdc = await rich.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_solana" } });
  const usdcId = (usdc.body.data as { id: string }).id;
  expect((await rich.call(`/invoices/${usdcId}/pay`, { method: "POST" })).body.error_code).toBe("invoice_not_payable");
});

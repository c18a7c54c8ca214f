import { seededRandom } from "@/test/seeded-random";

// Malformed requests for every route of the shop: broken paths, queries, bodies, credentials and payment headers.
// Deterministic (a seeded generator), so a failure names a case that can be sent again.

export type FuzzCase = { method: string; path: string; headers: Record<string, string>; body?: string | Uint8Array; label: string };

/** Values that have broken shops before: NUL, invalid UTF-8 and lone surrogates, huge numbers, wrong types. */
export const BAD_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "%00",
  "%ED%A0%80",
  "%C0%AF",
  "%FF",
  "%",
  "%zz",
  "1e20",
  "-1",
  "99999999999999999999999999",
  "NaN",
  "Infinity",
  "0x",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "x".repeat(5000),
  "🎁".repeat(200),
  "",
  " ",
];

const BAD_JSON_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -1e308,
  1.5,
  "\u0000",
  "\ud800",
  "x".repeat(3000),
  [],
  {},
  [null],
  { "\u0000": 1 },
  99999999999999999999,
];

/** Raw bodies that are not JSON, or JSON of the wrong shape. */
const RAW_BODIES: (string | Uint8Array)[] = [
  "",
  "{",
  "null",
  "[]",
  '"\\u0000"',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  "\u0000",
  new Uint8Array([0xff, 0xfe, 0xfd]),
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // {"a":"<surrogate as UTF-8>"}
  "[".repeat(10_000),
  '{"items":' + "[".repeat(5000) + "]".repeat(5000) + "}",
];

/** Credentials and tokens with NUL bytes, broken base64 and other forms. */
function badAuthorizations(): string[] {
  const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");
  return [
    `Basic ${b64("\u0000:\u0000")}`,
    `Basic ${b64("a\u0000:b")}`,
    `Basic ${Buffer.from([0xed, 0xa0, 0x80, 0x3a, 0xff]).toString("base64")}`,
    "Basic %%%",
    "Basic ",
    `Basic ${b64("no-colon")}`,
    `Basic ${b64(":")}`,
    `Basic ${b64("x".repeat(3000) + ":" + "y".repeat(3000))}`,
    "Bearer ",
    "Bearer %ED%A0%80",
    `Bearer ${"x".repeat(5000)}`,
    "Bearer \u00ff\u00fe",
    "Digest abc",
  ];
}

/** Payment and sign-in headers that are forged or malformed. */
function badPaymentHeaders(): Record<string, string>[] {
  const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64");
  const payloads: unknown[] = [
    "not base64 at all %%%",
    "{",
    null,
    [],
    { x402Version: 2 },
    { x402Version: 2, accepted: {}, payload: {} },
    { x402Version: 2, accepted: { scheme: "exact", network: "eip155:84532", amount: "1e30", asset: "0x", payTo: "\u0000" }, payload: { signature: "0x00" } },
    {
      x402Version: 2,
      accepted: {
        scheme: "exact",
        network: "eip155:84530402",
        amount: "1000",
        asset: "0x0000000000000000000000000000000000000000",
        payTo: "0x0000000000000000000000000000000000000000",
        maxTimeoutSeconds: 60,
        extra: {},
      },
      payload: {
        signature: `0x${"00".repeat(65)}`,
        authorization: {
          from: "0x0000000000000000000000000000000000000001",
          to: "0x0000000000000000000000000000000000000000",
          value: "99999999999999999999999999999",
          validAfter: "-1",
          validBefore: "1e99",
          nonce: "0x00",
        },
      },
    },
    { x402Version: 2, accepted: { scheme: "exact", network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", amount: "1" }, payload: { transaction: "\u0000" } },
    { x402Version: 999 },
  ];
  const out: Record<string, string>[] = [];
  for (const p of payloads) {
    const v = typeof p === "string" && p.includes("%") ? p : b64(p);
    out.push({ "payment-signature": v });
    out.push({ "x-payment": v });
    out.push({ "sign-in-with-x": v });
  }
  out.push({ "x-access-token": "x".repeat(5000) });
  out.push({ "x-access-token": "eyJhbGciOiJub25lIn0.eyJzdWIiOiIweDAwIn0." });
  out.push({ "x-access-token": "\u00ff\u00fe" });
  out.push({ "idempotency-key": "x".repeat(5000) });
  out.push({ "idempotency-key": "\u00ff" });
  out.push({ "x-service-affiliate-id": "\u00ff\u00fe!!" });
  out.push({ "x-real-ip": "127.0.0.1" });
  out.push({ "x-forwarded-for": "not-an-ip, \u00ff" });
  return out;
}

type Route = { method: string; path: string; query?: string[]; body?: boolean; auth?: "merchant" | "admin" | "none" };

/** Every route of the shop, with the query parameters it reads. `{id}` is replaced by bad values. */
export const ROUTES: Route[] = [
  // Pages
  { method: "GET", path: "/", query: ["q"] },
  { method: "GET", path: "/search", query: ["q", "kind", "country", "page", "sort"] },
  { method: "GET", path: "/products/{id}" },
  { method: "GET", path: "/cart" },
  { method: "GET", path: "/invoices/{id}" },
  { method: "GET", path: "/pay/{id}" },
  { method: "GET", path: "/account/orders", query: ["page"] },
  { method: "GET", path: "/account/esims" },
  { method: "GET", path: "/gift-cards/balance" },
  { method: "GET", path: "/docs" },
  { method: "GET", path: "/dashboard", query: ["from"] },
  { method: "GET", path: "/dashboard/sign-in", query: ["next", "error"] },
  { method: "GET", path: "/dashboard/invoices", query: ["status", "page", "q"] },
  { method: "GET", path: "/dashboard/invoices/{id}" },
  { method: "GET", path: "/dashboard/orders", query: ["status", "page", "q", "from", "to"] },
  { method: "GET", path: "/dashboard/orders/{id}" },
  { method: "GET", path: "/dashboard/orders/export.csv", query: ["status", "from", "to"] },
  { method: "GET", path: "/dashboard/webhooks/{id}" },
  { method: "GET", path: "/dashboard/gift-cards", query: ["after"] },
  { method: "GET", path: "/dashboard/gift-cards/{id}" },
  { method: "GET", path: "/dashboard/gift-cards/{id}/codes.csv" },
  { method: "POST", path: "/dashboard/balance/topup", body: true },
  { method: "POST", path: "/dashboard/balance/topup/requirements", body: true },
  { method: "GET", path: "/img/products/{id}" },
  // x402 API
  { method: "GET", path: "/x402/checkout/info" },
  { method: "POST", path: "/x402/connect", body: true },
  { method: "GET", path: "/x402/gift-cards/search", query: ["q", "country", "limit", "start"] },
  { method: "GET", path: "/x402/esims/search", query: ["q", "country", "limit", "start"] },
  { method: "GET", path: "/x402/topups/search", query: ["phone", "q", "country", "limit"] },
  { method: "GET", path: "/x402/products/detail", query: ["slug"] },
  { method: "POST", path: "/x402/invoice/create", body: true },
  { method: "POST", path: "/x402/invoice/pay", body: true },
  { method: "GET", path: "/x402/invoice/status", query: ["invoice_id"] },
  { method: "GET", path: "/x402/my/orders", query: ["limit", "start"] },
  { method: "GET", path: "/x402/my/esims", query: ["limit", "start"] },
  { method: "GET", path: "/x402/openapi.json" },
  { method: "GET", path: "/api/pay/{id}" },
  { method: "POST", path: "/api/sign-in/challenge", body: true },
  { method: "POST", path: "/api/invoice-payment", body: true },
  { method: "POST", path: "/api/dev/faucet", body: true },
  { method: "GET", path: "/api/dev/devnet" },
  { method: "POST", path: "/api/dev/demo-merchant", body: true },
  // Merchant API v2
  { method: "GET", path: "/api/v2/ping", auth: "merchant" },
  { method: "GET", path: "/api/v2/accounts/balance", auth: "merchant" },
  { method: "GET", path: "/api/v2/check_phone_number", query: ["phone_number", "phone"], auth: "merchant" },
  { method: "GET", path: "/api/v2/products", query: ["limit", "start", "country", "kind", "q", "cursor"], auth: "merchant" },
  { method: "GET", path: "/api/v2/products/search", query: ["q", "query", "limit"], auth: "merchant" },
  { method: "GET", path: "/api/v2/products/{id}", auth: "merchant" },
  { method: "GET", path: "/api/v2/products/esims", query: ["limit", "start", "country"], auth: "merchant" },
  { method: "GET", path: "/api/v2/products/esims/{id}", auth: "merchant" },
  { method: "GET", path: "/api/v2/esims", query: ["limit", "start"], auth: "merchant" },
  { method: "POST", path: "/api/v2/esims", body: true, auth: "merchant" },
  { method: "GET", path: "/api/v2/esims/{id}", auth: "merchant" },
  { method: "GET", path: "/api/v2/esims/invoice/{id}", auth: "merchant" },
  { method: "POST", path: "/api/v2/esims/invoice/{id}/pay", body: true, auth: "merchant" },
  { method: "GET", path: "/api/v2/invoices", query: ["limit", "start", "status", "from", "to", "cursor"], auth: "merchant" },
  { method: "POST", path: "/api/v2/invoices", body: true, auth: "merchant" },
  { method: "GET", path: "/api/v2/invoices/{id}", auth: "merchant" },
  { method: "POST", path: "/api/v2/invoices/{id}/pay", body: true, auth: "merchant" },
  { method: "GET", path: "/api/v2/orders", query: ["limit", "start", "status", "from", "to", "cursor"], auth: "merchant" },
  { method: "GET", path: "/api/v2/orders/{id}", auth: "merchant" },
  { method: "GET", path: "/api/v2/webhooks/deliveries", query: ["limit", "start", "status", "cursor"], auth: "merchant" },
  { method: "GET", path: "/api/v2/webhooks/deliveries/{id}", auth: "merchant" },
  { method: "POST", path: "/api/v2/webhooks/deliveries/{id}/redeliver", body: true, auth: "merchant" },
  { method: "GET", path: "/api/v2/gift-card-batches", query: ["limit", "after"], auth: "merchant" },
  { method: "POST", path: "/api/v2/gift-card-batches", body: true, auth: "merchant" },
  { method: "GET", path: "/api/v2/gift-card-batches/{id}", auth: "merchant" },
  { method: "POST", path: "/api/gift-cards/balance", body: true },
  { method: "GET", path: "/api/v2/openapi.json" },
  // Operations
  { method: "GET", path: "/api/health", query: ["ready"] },
  { method: "GET", path: "/api/cron/tick", auth: "none" },
  { method: "GET", path: "/api/metrics", auth: "admin" },
  // Operator API
  { method: "POST", path: "/api/admin/backup", body: true, auth: "none" },
  { method: "POST", path: "/api/admin/catalog/import", body: true, auth: "admin" },
  { method: "POST", path: "/api/admin/stock/import", body: true, auth: "admin" },
  { method: "GET", path: "/api/admin/stock/levels", query: ["product_id"], auth: "admin" },
  { method: "GET", path: "/api/admin/refunds", auth: "admin" },
  { method: "POST", path: "/api/admin/refunds/{id}/mark-paid", body: true, auth: "admin" },
  { method: "POST", path: "/api/admin/merchants", body: true, auth: "admin" },
  { method: "GET", path: "/api/admin/merchants/{id}", auth: "admin" },
  { method: "PATCH", path: "/api/admin/merchants/{id}", body: true, auth: "admin" },
  { method: "POST", path: "/api/admin/merchants/{id}/credit", body: true, auth: "admin" },
  { method: "POST", path: "/api/admin/supply/sync", body: true, auth: "admin" },
  { method: "POST", path: "/api/upstream/webhook", body: true, auth: "none" },
];

/** A value as it would appear in a URL: raw percent sequences stay as they are (they are the point), the rest is encoded. */
function inUrl(v: string): string {
  if (/%/.test(v)) return v;
  // A lone surrogate has no UTF-8 form: it goes as the bytes a broken client would send for it.
  return v.isWellFormed() ? encodeURIComponent(v) : v.replace(/[\ud800-\udfff]/g, "%ED%A0%80");
}

/** Field names the JSON bodies of the shop read, to put bad values where a handler looks. */
const BODY_FIELDS = [
  "items",
  "invoice_id",
  "product_id",
  "package_id",
  "quantity",
  "amount",
  "amount_usd",
  "credit_usd",
  "name",
  "phone_number",
  "refill_input",
  "email",
  "auto_pay",
  "payment_method",
  "network",
  "address",
  "status",
  "webhook_url",
  "price",
  "package",
  "slug",
];

/**
 * Credentials that pass, so that bad input reaches the handlers behind them. Several merchants' keys are used in turn:
 * the merchant API's limits are per credential (60 requests in 10 minutes on some routes).
 */
export type Credentials = { merchantBasic: string[]; admin?: string };

/**
 * The cases: for each route, bad path ids, bad query values, bad bodies (raw and by field), bad credentials and
 * forged payment headers, then a sample of random combinations (`extra`).
 */
export function fuzzCases(creds: Credentials, { seed = 402, extra = 600 } = {}): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const random = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  let turn = 0;
  const goodAuth = (r: Route): Record<string, string> =>
    r.auth === "merchant" && creds.merchantBasic.length > 0
      ? { authorization: creds.merchantBasic[turn++ % creds.merchantBasic.length]! }
      : r.auth === "admin" && creds.admin
        ? { authorization: `Bearer ${creds.admin}` }
        : {};
  const fill = (p: string, id: string) => p.replace("{id}", id);
  const json = { "content-type": "application/json" };

  for (const [routeIndex, r] of ROUTES.entries()) {
    const base = fill(r.path, "inv_does_not_exist");
    for (const bad of BAD_STRINGS) {
      if (r.path.includes("{id}"))
        cases.push({ method: r.method, path: fill(r.path, inUrl(bad)), headers: goodAuth(r), label: `path id ${JSON.stringify(bad.slice(0, 20))}` });
      for (const q of r.query ?? [])
        cases.push({ method: r.method, path: `${base}?${q}=${inUrl(bad)}`, headers: goodAuth(r), label: `query ${q}=${JSON.stringify(bad.slice(0, 20))}` });
    }
    cases.push({ method: r.method, path: `${base}?%ED%A0%80=1&%00=%00`, headers: goodAuth(r), label: "broken query names" });
    cases.push({ method: r.method, path: `${base}/%ED%A0%80`, headers: goodAuth(r), label: "broken path segment" });
    // Every bad credential where credentials are read, a few elsewhere; every forged payment or sign-in header where
    // payments and sign-ins are read (the /x402 API, the dashboard's top-up), a few elsewhere.
    const auths = badAuthorizations();
    for (const a of r.auth ? auths : auths.filter((_, i) => i % 5 === 0))
      cases.push({ method: r.method, path: base, headers: { authorization: a }, label: `authorization ${a.slice(0, 24)}` });
    const payments = badPaymentHeaders();
    const paid = r.path.startsWith("/x402/") || r.path.startsWith("/dashboard/balance/topup") || r.path === "/api/invoice-payment";
    for (const h of paid ? payments : payments.filter((_, i) => i % 8 === 0))
      cases.push({ method: r.method, path: base, headers: { ...goodAuth(r), ...h }, label: `header ${Object.keys(h)[0]}` });
    if (r.body || r.method !== "GET") {
      for (const b of RAW_BODIES)
        cases.push({
          method: r.method,
          path: base,
          headers: { ...goodAuth(r), ...json },
          body: b,
          label: `raw body ${typeof b === "string" ? JSON.stringify(b.slice(0, 20)) : "bytes"}`,
        });
      for (const [fi, f] of BODY_FIELDS.entries()) {
        // A third of the fields on each route, in turn: every field meets every route family.
        if ((fi + routeIndex) % 3 !== 0) continue;
        // Every bad value for every field across the routes, a third of them on each route.
        for (const v of BAD_JSON_VALUES.filter((_, vi) => (fi + vi + cases.length) % 3 === 0))
          cases.push({
            method: r.method,
            path: base,
            headers: { ...goodAuth(r), ...json },
            body: JSON.stringify({ [f]: v }),
            label: `body ${f}=${JSON.stringify(v)?.slice(0, 20)}`,
          });
        cases.push({
          method: r.method,
          path: base,
          headers: { ...goodAuth(r), ...json },
          body: JSON.stringify({ [f]: [{ product_id: "\u0000", package_id: "\ud800", quantity: 1e20, refill_input: "\u0000" }] }),
          label: `body ${f}=[bad item]`,
        });
      }
      cases.push({
        method: r.method,
        path: base,
        headers: { ...goodAuth(r), ...json },
        body: JSON.stringify({ items: [{ product_id: "x", quantity: 1 }] }).padEnd(200_000, " "),
        label: "body of 200 KB",
      });
      cases.push({ method: r.method, path: base, headers: { ...goodAuth(r), "content-type": "text/plain" }, body: "items=1", label: "form body" });
    }
  }
  for (let i = 0; i < extra; i++) {
    const r = pick(ROUTES);
    const bad = pick(BAD_STRINGS);
    const query = (r.query ?? []).map((q) => `${q}=${inUrl(random() < 0.5 ? bad : pick(BAD_STRINGS))}`).join("&");
    const headers = { ...(random() < 0.5 ? goodAuth(r) : { authorization: pick(badAuthorizations()) }), ...(random() < 0.5 ? pick(badPaymentHeaders()) : {}) };
    const body = r.method === "GET" ? undefined : JSON.stringify({ [pick(BODY_FIELDS)]: pick(BAD_JSON_VALUES), [pick(BODY_FIELDS)]: bad });
    cases.push({
      method: r.method,
      path: `${fill(r.path, inUrl(pick(BAD_STRINGS)))}${query ? `?${query}` : ""}`,
      headers: { ...headers, ...(body ? json : {}) },
      body,
      label: `random #${i}`,
    });
  }
  return cases;
}

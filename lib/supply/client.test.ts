import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "@/test/log";
import { UpstreamClient, UpstreamRateLimited, UpstreamRefusal, UpstreamUnavailable } from "./client";
import { startStandIn, type FaultAnswer } from "@/test/supply";

const SECRET = "very-secret-upstream-key";
const product = {
  id: "steam-us",
  name: "Steam US",
  type: "gift_card",
  brand: "Steam",
  country_code: "US",
  country_name: "United States",
  currency: "USD",
  categories: ["gaming"],
  created_time: "2026-01-01T00:00:00.000Z",
  recipient_type: "none",
  image: "https://supplier.example/img/steam.svg",
  in_stock: true,
  is_test: false,
  description: "Steam wallet.",
  redemption_instructions: "Redeem on Steam.",
  packages: [{ id: "steam-us<&>10", package_id: "steam-us<&>10", value: "10", amount: 10, price: 1000, in_stock: true, new_field: "kept out" }],
  rating: 4.5,
};
const page = (next?: string) => ({
  meta: { _endpoint: "/products", start: 0, limit: 50, count: 1, total: 1, ...(next ? { _next: next } : {}) },
  data: [product],
});

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.map((s) => s()));
  stops = [];
});

async function standIn(decide: (req: { method: string; path: string; n: number }) => FaultAnswer) {
  const s = await startStandIn("http://127.0.0.1:9", decide);
  stops.push(s.stop);
  return { ...s, client: (opts = {}) => new UpstreamClient({ url: `${s.origin}/api/v2`, auth: { kind: "basic", id: "shop", secret: SECRET } }, opts) };
}

describe("the upstream client", () => {
  it("reads answers with the shop's own schemas, tolerating fields it does not know, and sends the credentials", async () => {
    let auth = "";
    const s = await startStandIn("http://127.0.0.1:9", () => ({ status: 200, body: page() }));
    stops.push(s.stop);
    const client = new UpstreamClient(
      { url: `${s.origin}/api/v2/`, auth: { kind: "bearer", token: SECRET } },
      {
        fetch: async (url, init) => {
          auth = new Headers(init?.headers).get("authorization") ?? "";
          return fetch(url, init);
        },
      },
    );
    const got = await client.products();
    expect(auth).toBe(`Bearer ${SECRET}`);
    expect(got.products).toHaveLength(1);
    expect(got.products[0]).toMatchObject({ id: "steam-us", packages: [{ value: "10", price: 1000 }] });
    expect(got.products[0]).not.toHaveProperty("rating");
    expect(s.seen[0]).toMatchObject({ method: "GET", path: "/api/v2/products?limit=50" });
  });

  it("skips a product it cannot read, not the page, and follows meta._next only on the upstream's origin", async () => {
    const s = await standIn((r) => ({
      status: 200,
      body: r.n === 0 ? { ...page("https://elsewhere.example/api/v2/products?start=50"), data: [product, { id: 5 }] } : page(),
    }));
    const client = s.client();
    const first = await client.products();
    expect(first).toMatchObject({ skipped: 1, next: "https://elsewhere.example/api/v2/products?start=50" });
    await expect(client.products(first.next)).rejects.toThrow(/another origin/);
    expect(s.seen).toHaveLength(1);
  });

  it("waits out a short 429 by its Retry-After and tries once more", async () => {
    const s = await standIn((r) =>
      r.n === 0 ? { status: 429, headers: { "Retry-After": "1" }, body: { error_code: "rate_limited", message: "slow" } } : { status: 200, body: page() },
    );
    const started = Date.now();
    expect((await s.client().products()).products).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(s.seen.map((r) => r.status)).toEqual([429, 200]);
  });

  it("stops at a long 429 with the time to come back, and sends nothing before it", async () => {
    const s = await standIn(() => ({
      status: 429,
      headers: { "Retry-After": "30", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + 30) },
      body: { error_code: "rate_limited", message: "slow down" },
    }));
    const client = s.client();
    const err = await client.products().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamRateLimited);
    expect((err as UpstreamRateLimited).retryAt).toBeGreaterThan(Date.now() + 25_000);
    await expect(client.products()).rejects.toBeInstanceOf(UpstreamRateLimited);
    expect(s.seen).toHaveLength(1);
  });

  it("waits for X-RateLimit-Reset once X-RateLimit-Remaining is 0", async () => {
    const reset = Math.ceil(Date.now() / 1000) + 1;
    const s = await standIn(() => ({ status: 200, headers: { "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset) }, body: page() }));
    const client = s.client();
    await client.products();
    await client.products();
    expect(Date.now()).toBeGreaterThanOrEqual(reset * 1000 - 5);
  });

  it("gives up on a slow upstream at its timeout, and tells a 5xx from a refusal", async () => {
    const s = await standIn((r) =>
      r.n === 0
        ? { status: 200, body: page(), delayMs: 3_000 }
        : r.n === 1
          ? { status: 502, body: { error_code: "bad_gateway", message: "down" } }
          : {
              status: 400,
              body: { meta: { _endpoint: "/invoices" }, error_code: "balance_too_low", message: "Balance too low", required: 1000, available: 0 },
            },
    );
    const client = s.client({ timeoutMs: 500 });
    const started = Date.now();
    await expect(client.products()).rejects.toThrow(UpstreamUnavailable);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(client.invoice("inv_x")).rejects.toThrow(UpstreamUnavailable);
    const refusal = await client.createInvoice({ products: [] }, "ord_1").catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UpstreamRefusal);
    expect(refusal).toMatchObject({ status: 400, code: "balance_too_low", body: { required: 1000 } });
  });

  it("never writes its credentials to the log", async () => {
    const capture = captureLog();
    try {
      const s = await standIn((r) => (r.n === 0 ? { status: 500, body: {} } : { status: 401, body: { error_code: "unauthorized", message: "no" } }));
      const client = s.client();
      await client.products().catch(() => undefined);
      await client.balance().catch(() => undefined);
    } finally {
      capture.restore();
    }
    expect(capture.lines.length).toBeGreaterThan(0);
    const written = JSON.stringify(capture.lines);
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(Buffer.from(`shop:${SECRET}`).toString("base64"));
  });
});

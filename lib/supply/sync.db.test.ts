import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as syncRoute } from "@/app/api/admin/supply/sync/route";
import { getProduct, search } from "@/lib/catalog";
import { merchantProduct } from "@/lib/api/merchant/products";
import { resolvePackage } from "@/lib/checkout/resolve-package";
import { STORE_GIFT_CARD_SLUG } from "@/lib/catalog/store-products";
import { processTestDatabase, testDriver } from "@/test/db";
import { config } from "@/lib/platform/config";
import type { Database } from "@/lib/platform/db";
import { productPackages, products, settings } from "@/lib/platform/db/schema";
import { UpstreamClient } from "./client";
import { readState, syncUpstreamCatalog } from "./sync";
import { syncUpstreamIfDue } from ".";
import { giftCardRow, startStandIn, startUpstreamShop, type UpstreamShop } from "@/test/supply";

let upstream: UpstreamShop;
let database: Database;
let credentials: { id: string; secret: string };
const ENV = { ADMIN_TOKEN: "sync-test-admin-token-0123456789" };
const SLUGS = Array.from({ length: 120 }, (_, i) => `card-${String(i).padStart(3, "0")}`);

// Two shops' databases open at once here: on a busy machine that takes longer than a hook's usual minute.
vi.setConfig({ hookTimeout: 180_000 });
// Started at once, beside this file's own database (each takes seconds to open).
const starting = startUpstreamShop();
starting.catch(() => undefined); // awaited (and its failure reported) in beforeAll
processTestDatabase((d) => (database = d));

beforeAll(async () => {
  upstream = await starting;
  await upstream.importProducts(SLUGS.map((s) => giftCardRow(s)));
  credentials = await upstream.newMerchant(0);
  // This shop resells it (read by config() at its first call, after this): margin 5 %.
  Object.assign(process.env, { ...ENV, UPSTREAM_API_URL: upstream.apiUrl, UPSTREAM_API_ID: credentials.id, UPSTREAM_API_SECRET: credentials.secret });
}, 180_000);

afterAll(async () => {
  for (const v of [...Object.keys(ENV), "UPSTREAM_API_URL", "UPSTREAM_API_ID", "UPSTREAM_API_SECRET"]) delete process.env[v];
  await (await starting.catch(() => undefined))?.stop();
});

const clientOf = (url: string) => new UpstreamClient({ url, auth: { kind: "basic", ...credentials } });
const cfg = { syncMinutes: 60 };

async function packageRow(slug: string, value: string) {
  return (await database.db.select().from(productPackages).where(eq(productPackages.productId, slug))).find((p) => p.value === value);
}

async function listed(slug: string): Promise<boolean | undefined> {
  const [row] = await database.db.select({ inStock: products.inStock }).from(products).where(eq(products.id, slug));
  return row?.inStock;
}

describe(`the upstream catalog sync on ${testDriver}`, () => {
  it("imports every page of the upstream's products with their cost, priced at least cost plus the margin", async () => {
    const report = await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg);
    expect(report).toMatchObject({ status: "complete", pages: 3, imported: 120, rejected: [], gone: 0 });
    const rows = await database.db.select({ id: products.id, supplier: products.supplier }).from(products);
    expect(rows).toHaveLength(120);
    expect(new Set(rows.map((r) => r.supplier))).toEqual(new Set(["upstream"]));
    // The upstream, a shop like this one, lists its own gift card too: spendable there only, it is not resold.
    expect(rows.map((r) => r.id)).not.toContain(STORE_GIFT_CARD_SLUG);
    expect(await packageRow("card-007", "25")).toMatchObject({ faceValueMinor: 2500n, costCents: 2500n });
    // Cost 25.00 USD, 5 % margin: 26.25, above the face value's price.
    const product = await getProduct("card-007", database.db);
    expect(product?.packages.map((p) => p.priceUsdc)).toEqual([10_500_000n, 26_250_000n]);
    expect(product).toMatchObject({ supplier: "upstream", priceFromUsdc: 10_500_000n, priceToUsdc: 26_250_000n });
    // A recent pass: the next call has nothing to do.
    expect((await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg)).status).toBe("not_due");
  });

  it("stops at a 429, remembers the page, and resumes there after Retry-After", async () => {
    const standIn = await startStandIn(upstream.origin, (r) =>
      r.n === 1
        ? { status: 429, headers: { "Retry-After": "3" }, body: { meta: { _endpoint: "/products" }, error_code: "rate_limited", message: "Slow down" } }
        : "forward",
    );
    try {
      const client = clientOf(`${standIn.origin}/api/v2`);
      const paused = await syncUpstreamCatalog(database.db, client, cfg, { force: true });
      expect(paused).toMatchObject({ status: "paused", pages: 1 });
      expect(Date.parse(paused.resume_at!)).toBeGreaterThan(Date.now() + 1_000);
      const state = await readState(database.db, new Date());
      expect(state.pass?.next).toMatch(/\/api\/v2\/products\?.*start=50/);
      // Before the time, nothing is asked.
      expect((await syncUpstreamCatalog(database.db, client, cfg)).status).toBe("not_due");
      expect(standIn.seen).toHaveLength(2);

      await new Promise((r) => setTimeout(r, Date.parse(paused.resume_at!) - Date.now() + 50));
      // A new client, as after a restart: the place is in the database.
      const resumed = await syncUpstreamCatalog(database.db, clientOf(`${standIn.origin}/api/v2`), cfg);
      // The first page held 49 of the 120 cards and the upstream's own gift card (not resold): 71 are left.
      expect(resumed).toMatchObject({ status: "complete", pages: 2, imported: 71 });
      expect(standIn.seen.map((s) => new URL(s.path, "http://x").searchParams.get("start") ?? "0")).toEqual(["0", "50", "50", "100"]);
      expect(standIn.seen.map((s) => s.status)).toEqual([200, 429, 200, 200]);
    } finally {
      await standIn.stop();
    }
  });

  it("reprices a product whose cost changed, and makes products gone upstream unavailable without deleting them", async () => {
    // Upstream, card-001's 10 now costs 12 (its face value moved) and card-002 is no longer listed (a test product).
    await upstream.importProducts([
      giftCardRow("card-001", [], { packages: [{ value: "10", faceValue: "12" }, { value: "25" }] }),
      giftCardRow("card-002", ["10", "25"], { isTest: true }),
    ]);
    expect((await getProduct("card-001", database.db))?.packages[0]?.priceUsdc).toBe(10_500_000n);
    const report = await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg, { force: true });
    expect(report).toMatchObject({ status: "complete", imported: 119, gone: 1 });
    expect((await getProduct("card-001", database.db))?.packages[0]?.priceUsdc).toBe(12_600_000n);
    expect(await getProduct("card-002", database.db)).toMatchObject({ slug: "card-002", inStock: false });
    expect(await listed("card-002")).toBe(false);

    // Listed again: available again.
    await upstream.importProducts([giftCardRow("card-002", ["10", "25"], { isTest: false })]);
    await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg, { force: true });
    expect(await listed("card-002")).toBe(true);
  });

  it("syncs on POST /api/admin/supply/sync (admin token), and on the scheduler once the last pass is older than UPSTREAM_SYNC_MINUTES", async () => {
    expect(config().upstream?.url).toBe(upstream.apiUrl);
    const refused = await syncRoute(new Request("http://shop.test/api/admin/supply/sync", { method: "POST" }), { params: Promise.resolve({}) });
    expect(refused.status).toBe(401);
    const admin = { Authorization: `Bearer ${ENV.ADMIN_TOKEN}` };
    const res = await syncRoute(new Request("http://shop.test/api/admin/supply/sync", { method: "POST", headers: admin }), { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "complete", pages: 3, imported: 120, gone: 0, resume_at: null, error: null });
    // Not due: the scheduler's pass (the server's loop, the cron round's job) asks nothing.
    expect(await syncUpstreamIfDue(database.db)).toMatchObject({ status: "not_due" });
    // An hour later (the last pass's time moved back), it syncs.
    const state = await readState(database.db, new Date());
    await database.db
      .update(settings)
      .set({ value: { ...state, lastCompleteAt: new Date(Date.now() - 61 * 60_000).toISOString() } })
      .where(eq(settings.key, "upstream.sync"));
    expect(await syncUpstreamIfDue(database.db)).toMatchObject({ status: "complete" });
    expect(Date.parse((await readState(database.db, new Date())).lastCompleteAt!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("leaves a product the operator sells from its own codes alone", async () => {
    await database.db.update(products).set({ supplier: "inventory", name: "Our own card" }).where(eq(products.id, "card-050"));
    const report = await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg, { force: true });
    expect(report).toMatchObject({ status: "complete", imported: 119, gone: 0 });
    expect(report.rejected).toEqual([{ row: 0, slug: "card-050", errors: [expect.stringMatching(/own stock/)] }]);
    const [own] = await database.db.select().from(products).where(eq(products.id, "card-050"));
    expect(own).toMatchObject({ supplier: "inventory", name: "Our own card", inStock: true });
  });

  it("brings an eSIM's bundles and countries, an open range with its cost rate, and each package's stock", async () => {
    await upstream.importProducts([
      {
        slug: "esim-europe",
        name: "Europe eSIM",
        kind: "esim",
        brand: "Roam",
        coverage: ["FR", "DE", "IT"],
        region: "Europe",
        currency: "USD",
        categories: ["esim"],
        description: "Data in Europe.",
        redemptionInstructions: "Scan the QR code.",
        packages: [
          { value: "3GB, 30 Days", faceValue: "9", dataMb: 3072, validityDays: 30 },
          { value: "Unlimited, 7 Days", faceValue: "20", validityDays: 7 },
        ],
      },
      giftCardRow("open-card", [], { range: { min: "5", max: "200", step: "0.01" } }),
      giftCardRow("half-stocked", ["10", "25"], { range: { min: "5", max: "200", step: "0.01" } }),
    ]);
    // The upstream sells half-stocked from codes of its own: only its 10 has any.
    const stocked = await upstream.admin("POST", "/api/admin/stock/import", {
      product_id: "half-stocked",
      package_value: "10",
      batch: "sync-test",
      codes: [{ code: "HALF-STOCKED-0001", pin: null, expiration_date: null }],
    });
    expect(stocked.status).toBe(200);

    const report = await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg, { force: true });
    expect(report).toMatchObject({ status: "complete", gone: 0 });
    expect(report.rejected.filter((r) => r.slug !== "card-050")).toEqual([]);

    const esim = await getProduct("esim-europe", database.db);
    expect(esim).toMatchObject({ kind: "esim", country: null, coverage: ["FR", "DE", "IT"], region: "Europe", inStock: true });
    expect(esim?.packages.map((p) => [p.value, p.dataMb, p.validityDays, p.priceUsdc])).toEqual([
      ["3GB, 30 Days", 3072, 30, 9_450_000n],
      ["Unlimited, 7 Days", null, 7, 21_000_000n],
    ]);

    // The upstream sells 5 to 200 at face value (its `price_rate` 1): here never below that plus the 5 % margin.
    const open = await getProduct("open-card", database.db);
    expect(open?.range).toMatchObject({ min: "5", max: "200", step: "0.01", costRate: "1", minPriceUsdc: 5_250_000n, maxPriceUsdc: 210_000_000n });
    expect(open).toMatchObject({ inStock: true, priceFromUsdc: 5_250_000n, priceToUsdc: 210_000_000n });
    // 37.50 costs 37.50 upstream: 39.375 with the margin, rounded up to the cent.
    expect(resolvePackage(open!, "37.5", []).priceUsdc).toBe(39_380_000n);
    expect((await search({ q: "open-card" }, database.db)).items.find((i) => i.slug === "open-card")).toMatchObject({
      priceFromUsdc: 5_250_000n,
      priceToUsdc: 210_000_000n,
    });

    // The 25 is sold out upstream: listed here as sold out, refused at checkout, and in_stock false in the merchant API.
    const half = await getProduct("half-stocked", database.db);
    expect(half).toMatchObject({ inStock: true });
    expect(half?.packages.map((p) => [p.value, p.stock])).toEqual([
      ["10", null],
      ["25", 0],
    ]);
    // Written another way ("25.00"), within its open range too, the amount is still that package: still sold out.
    for (const written of ["25", "25.00", "025", "half-stocked<&>25.0"]) {
      expect(() => resolvePackage(half!, written, ["items", 0, "package_value"]), written).toThrow(expect.objectContaining({ code: "out_of_stock" }));
    }
    expect(resolvePackage(half!, "10.00", [])).toEqual({ value: "10", faceValueMinor: 1000n, priceUsdc: 10_500_000n });
    // An amount of the range that is no package: priced by the range's cost rate (30 at 1, plus 5 %).
    expect(resolvePackage(half!, "30", []).priceUsdc).toBe(31_500_000n);
    expect(merchantProduct(half!, "http://shop.test").packages.map((p) => p.in_stock)).toEqual([true, false]);

    // Back in stock upstream: on sale again after the next pass.
    await upstream.admin("POST", "/api/admin/stock/import", {
      product_id: "half-stocked",
      package_value: "25",
      batch: "sync-test",
      codes: [{ code: "HALF-STOCKED-0002", pin: null, expiration_date: null }],
    });
    await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg, { force: true });
    expect((await getProduct("half-stocked", database.db))?.packages.map((p) => p.stock)).toEqual([null, null]);
  });

  it("keeps to the product quota: a pass that would exceed it pauses until the hour is over", async () => {
    const state = await readState(database.db, new Date());
    const now = new Date();
    await database.db
      .update(settings)
      .set({ value: { ...state, quota: { windowStart: now.toISOString(), requests: 949 } } })
      .where(eq(settings.key, "upstream.sync"));
    const report = await syncUpstreamCatalog(database.db, clientOf(upstream.apiUrl), cfg, { force: true });
    expect(report).toMatchObject({ status: "paused", pages: 1 });
    expect(Date.parse(report.resume_at!)).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(report.error).toMatch(/quota/);
  });
});

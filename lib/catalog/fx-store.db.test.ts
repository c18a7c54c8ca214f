import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as confirmRoute } from "@/app/api/admin/fx/confirm/route";
import type { Database } from "@/lib/platform/db";
import { fxHeldRates, fxRates, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { callRoute } from "@/test/merchant-api";
import { createInvoice } from "@/lib/checkout";
import { captureLog } from "@/test/log";
import { fxSource, setFxSource, shippedFxSource, tableFxSource } from "./fx";
import { fxMoves, fxRatesChanged, heldFxRates, heldFxWarning, latestFxRates, refreshFxRates, refreshFxRatesIfDue, syncFxSource } from "./fx-store";
import { getProduct } from "./get-product";
import { priceUsdc } from "./pricing";
import { search } from "./search";
import { ecbXml } from "@/test/catalog/ecb";

const ADMIN = vi.hoisted(() => (process.env.ADMIN_TOKEN = "fx-store-test-admin-token-0123456789"));

let database: Database;
let server: http.Server;
let url = "";
/** What the stand-in feed answers next: a status and a body; and how often it was asked. */
let answer: { status: number; body: string } = { status: 200, body: "" };
let asked = 0;

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
  server = http.createServer((_req, res) => {
    asked++;
    res.writeHead(answer.status, { "content-type": "text/xml" }).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml`;
}, 60_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await database?.close();
});
afterEach(async () => {
  setFxSource(shippedFxSource);
  fxRatesChanged(database.db);
  await database.db.delete(fxRates);
  await database.db.delete(fxHeldRates);
});

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const live = () => ({ fxRatesUrl: url, fxMaxAgeHours: 96 });

/** A euro gift card of the demo catalog (one of Germany's), and a dollar one (one of the United States'). */
async function products() {
  const [de, us] = await Promise.all([
    search({ kind: "gift_card", country: "DE", pageSize: 20 }, database.db),
    search({ kind: "gift_card", country: "US", pageSize: 20 }, database.db),
  ]);
  const euro = de.items.find((p) => p.currency === "EUR");
  const dollar = us.items.find((p) => p.currency === "USD");
  if (!euro || !dollar) throw new Error("the demo catalog has no euro or no dollar gift card");
  return { euro: euro.slug, dollar: dollar.slug };
}

describe(`live exchange rates on ${testDriver}`, () => {
  it("reads the ECB's rates, stores them in dollars per unit, and prices with them on every read", async () => {
    const { euro } = await products();
    const shippedPrice = (await getProduct(euro, database.db))!.packages[0]!.priceUsdc;

    answer = { status: 200, body: ecbXml(today(), { USD: "1.5", JPY: "160" }) };
    expect(await refreshFxRates(database.db, url)).toEqual({ asOf: today(), currencies: 3 });
    expect(await latestFxRates(database.db)).toMatchObject({ asOf: today(), usdPerUnit: { USD: "1", EUR: "1.5", JPY: "0.009375" } });

    const source = await syncFxSource(database.db, live());
    expect(fxSource()).toBe(source);
    expect(source.asOf).toBe(today());
    const product = (await getProduct(euro, database.db))!;
    const pkg = product.packages[0]!;
    // 1.5 dollars a euro (margin 0): the face value in euros times 1.5, in USDC atomic units.
    expect(pkg.priceUsdc).toBe((pkg.faceValueMinor * 15n * 10n ** 6n) / 1000n);
    expect(pkg.priceUsdc).not.toBe(shippedPrice);
  });

  it("makes products of other currencies unavailable when the rates are too old, and dollar ones stay", async () => {
    const { euro, dollar } = await products();
    const value = (await getProduct(euro, database.db))!.packages[0]!.value;
    answer = { status: 200, body: ecbXml(daysAgo(6), { USD: "1.1" }) };
    await refreshFxRates(database.db, url);
    await syncFxSource(database.db, live());
    expect(await getProduct(euro, database.db)).toBeNull();
    expect(await getProduct(dollar, database.db)).not.toBeNull();
    // Germany's euro cards are left out of a listing, and not counted; the dollar ones stay.
    const germany = await search({ country: "DE", pageSize: 100 }, database.db);
    expect(germany.items.filter((p) => p.currency !== "USD")).toEqual([]);
    expect(germany.total).toBe(germany.items.length);
    expect((await search({ kind: "gift_card", country: "US", pageSize: 100 }, database.db)).items.some((p) => p.slug === dollar)).toBe(true);
    // Nor can one be bought: the product is unknown while it cannot be priced.
    await expect(
      createInvoice(
        { items: [{ product_id: euro, package_value: value }], payer: { chainId: "eip155:84530402", address: "0x1111111111111111111111111111111111111111" } },
        database.db,
      ),
    ).rejects.toMatchObject({ code: "unknown_product" });

    // Fresh rates bring them back.
    answer = { status: 200, body: ecbXml(today(), { USD: "1.1" }) };
    await refreshFxRates(database.db, url);
    fxRatesChanged(database.db);
    await syncFxSource(database.db, live());
    expect(await getProduct(euro, database.db)).not.toBeNull();
    // And into the listing at once: the list kept for the query was priced with the old rates.
    expect((await search({ country: "DE", pageSize: 100 }, database.db)).items.some((p) => p.currency !== "USD")).toBe(true);
  });

  it("keeps no rate, and sells only dollar products, before any rates were read", async () => {
    const { euro, dollar } = await products();
    await syncFxSource(database.db, live());
    expect(await getProduct(euro, database.db)).toBeNull();
    expect(await getProduct(dollar, database.db)).not.toBeNull();
  });

  it("keeps the price an invoice was created with when the rates move", async () => {
    const { euro } = await products();
    answer = { status: 200, body: ecbXml(today(), { USD: "1.2" }) };
    await refreshFxRates(database.db, url);
    await syncFxSource(database.db, live());
    const value = (await getProduct(euro, database.db))!.packages[0]!.value;
    const payer = { chainId: "eip155:84530402", address: "0x2222222222222222222222222222222222222222" };
    const inv = await createInvoice({ items: [{ product_id: euro, package_value: value }], payer }, database.db);
    const priced = (await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id)))[0]!.priceUsdc;

    answer = { status: 200, body: ecbXml(today(), { USD: "2.4" }) };
    await refreshFxRates(database.db, url, { maxMovePercent: 100 });
    fxRatesChanged(database.db);
    await syncFxSource(database.db, live());
    expect((await getProduct(euro, database.db))!.packages[0]!.priceUsdc).toBe(priced * 2n);
    expect((await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id)))[0]!.priceUsdc).toBe(priced);
  });

  it("refreshes hourly from the scheduler, and keeps the stored rates when the feed fails", async () => {
    const hourly = { fxRatesUrl: url, fxMaxMovePercent: 10 };
    answer = { status: 200, body: ecbXml(daysAgo(1), { USD: "1.1" }) };
    expect(await refreshFxRatesIfDue(database.db, hourly)).toBe(daysAgo(1));
    // Fetched just now: not again within the hour.
    answer = { status: 200, body: ecbXml(today(), { USD: "1.15" }) };
    expect(await refreshFxRatesIfDue(database.db, hourly)).toBeUndefined();
    // An hour later the feed is down: logged, and the rates stored stay.
    answer = { status: 503, body: "maintenance" };
    expect(await refreshFxRatesIfDue(database.db, hourly, Date.now() + 3_600_001)).toBeUndefined();
    answer = { status: 200, body: "<html>not rates</html>" };
    expect(await refreshFxRatesIfDue(database.db, hourly, Date.now() + 3_600_001)).toBeUndefined();
    expect((await latestFxRates(database.db))?.asOf).toBe(daysAgo(1));
    answer = { status: 200, body: ecbXml(today(), { USD: "1.15" }) };
    expect(await refreshFxRatesIfDue(database.db, hourly, Date.now() + 3_600_001)).toBe(today());
    // Without FX_RATES_URL nothing is read.
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: undefined, fxMaxMovePercent: 10 })).toBeUndefined();
  });

  it("holds rates that move a currency more than FX_MAX_MOVE_PERCENT, with a warning, until the operator confirms them", async () => {
    const { euro } = await products();
    const cfg = { fxRatesUrl: url, fxMaxAgeHours: 96, fxMaxMovePercent: 10 };
    const hourLater = (n: number) => Date.now() + n * 3_600_001;
    answer = { status: 200, body: ecbXml(daysAgo(1), { USD: "1.25" }) };
    expect(await refreshFxRatesIfDue(database.db, cfg)).toBe(daysAgo(1));
    await syncFxSource(database.db, cfg);
    const pkg = (await getProduct(euro, database.db))!.packages[0]!;
    // Margin 0: the face value at the rate, rounded up to the cent.
    const at = (rate: string) => priceUsdc({ faceValueMinor: pkg.faceValueMinor, currency: "EUR" }, { fx: tableFxSource("", { EUR: rate }), marginBps: 0 });
    const price = pkg.priceUsdc;
    expect(price).toBe(at("1.25"));

    // Two hours later the feed moves the euro 25 %: held, logged, and the prices stay.
    await database.db.update(fxRates).set({ fetchedAt: new Date(Date.now() - 2 * 3_600_000) });
    answer = { status: 200, body: ecbXml(today(), { USD: "1.5625" }) };
    const logged = captureLog();
    try {
      expect(await refreshFxRatesIfDue(database.db, cfg)).toBeUndefined();
    } finally {
      logged.restore();
    }
    const warning = `exchange rates of ${today()} held: EUR 1.25 -> 1.5625 USD (+25 %) from the rates of ${daysAgo(1)}`;
    expect(logged.lines.find((l) => l.level === "warn")?.msg).toContain(warning);
    expect((await latestFxRates(database.db))?.asOf).toBe(daysAgo(1));
    fxRatesChanged(database.db);
    await syncFxSource(database.db, cfg);
    expect((await getProduct(euro, database.db))!.packages[0]!.priceUsdc).toBe(price);
    // What /operator and the readiness detail show.
    const held = await heldFxRates(database.db);
    expect(held).toMatchObject([{ asOf: today(), against: daysAgo(1), moves: [{ currency: "EUR", from: "1.25", to: "1.5625", percent: "+25" }] }]);
    expect(heldFxWarning(held[0]!)).toContain(warning);
    // A held fetch counts as the hour's: the feed is not asked again every round.
    asked = 0;
    expect(await refreshFxRatesIfDue(database.db, cfg)).toBeUndefined();
    expect(asked).toBe(0);

    // The operator confirms them (the admin API; /operator's button calls the same): applied at once.
    const restore = useAsProcessDatabase(database);
    try {
      const admin = { Authorization: `Bearer ${ADMIN}` };
      expect(await callRoute(confirmRoute, "/api/admin/fx/confirm", { body: { as_of: today() } })).toMatchObject({ status: 401 });
      expect(await callRoute(confirmRoute, "/api/admin/fx/confirm", { headers: admin, body: { as_of: "yesterday" } })).toMatchObject({ status: 400 });
      expect(await callRoute(confirmRoute, "/api/admin/fx/confirm", { headers: admin, body: { as_of: daysAgo(1) } })).toMatchObject({
        status: 404,
        body: { error_code: "not_held" },
      });
      expect(await callRoute(confirmRoute, "/api/admin/fx/confirm", { headers: admin, body: { as_of: today() } })).toMatchObject({
        status: 200,
        body: { as_of: today(), currencies: 2 },
      });
    } finally {
      restore();
    }
    expect(await heldFxRates(database.db)).toEqual([]);
    expect((await latestFxRates(database.db))?.usdPerUnit.EUR).toBe("1.5625");
    await syncFxSource(database.db, cfg);
    expect((await getProduct(euro, database.db))!.packages[0]!.priceUsdc).toBe(at("1.5625"));

    // A 3 % move applies at once.
    answer = { status: 200, body: ecbXml(today(), { USD: "1.609375" }) };
    expect(await refreshFxRatesIfDue(database.db, cfg, hourLater(1))).toBe(today());
    expect(await heldFxRates(database.db)).toEqual([]);
    expect((await latestFxRates(database.db))?.usdPerUnit.EUR).toBe("1.609375");
  });

  it("drops held rates when the feed comes back within bounds", async () => {
    answer = { status: 200, body: ecbXml(daysAgo(2), { USD: "1.2" }) };
    await refreshFxRates(database.db, url, { maxMovePercent: 10 });
    // A lost decimal point: held.
    answer = { status: 200, body: ecbXml(daysAgo(1), { USD: "12" }) };
    expect((await refreshFxRates(database.db, url, { maxMovePercent: 10 })).held?.moves).toEqual([{ currency: "EUR", from: "1.2", to: "12", percent: "+900" }]);
    answer = { status: 200, body: ecbXml(today(), { USD: "1.21" }) };
    expect((await refreshFxRates(database.db, url, { maxMovePercent: 10 })).held).toBeUndefined();
    expect(await heldFxRates(database.db)).toEqual([]);
    expect((await latestFxRates(database.db))?.asOf).toBe(today());
  });
});

describe("moves of exchange rates", () => {
  it("finds the currencies that moved more than the share, exactly, either way", () => {
    const applied = { USD: "1", EUR: "1.25", JPY: "0.0064", GBP: "1.3" };
    expect(fxMoves(applied, { USD: "1", EUR: "1.375", JPY: "0.00576", GBP: "1.3", CHF: "1.1" }, 10)).toEqual([]);
    expect(fxMoves(applied, { USD: "1", EUR: "1.3750000001", JPY: "0.0057599999" }, 10)).toEqual([
      { currency: "EUR", from: "1.25", to: "1.3750000001", percent: "+10" },
      { currency: "JPY", from: "0.0064", to: "0.0057599999", percent: "-10" },
    ]);
    expect(fxMoves(applied, { EUR: "0.8" }, 10)).toEqual([{ currency: "EUR", from: "1.25", to: "0.8", percent: "-36" }]);
    expect(fxMoves(applied, { GBP: "1.3433" }, 3)).toEqual([{ currency: "GBP", from: "1.3", to: "1.3433", percent: "+3.33" }]);
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { fxRates, orders } from "@/lib/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/lib/db/testing";
import { createInvoice } from "@/lib/invoices";
import { fxSource, setFxSource, shippedFxSource } from "./fx";
import { fxRatesChanged, latestFxRates, refreshFxRates, refreshFxRatesIfDue, syncFxSource } from "./fx-store";
import { getProduct } from "./get-product";
import { search } from "./search";
import { ecbXml } from "./testing/ecb";

let database: Database;
let server: http.Server;
let url = "";
/** What the stand-in feed answers next: a status and a body. */
let answer: { status: number; body: string } = { status: 200, body: "" };

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
  server = http.createServer((_req, res) => {
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
    await refreshFxRates(database.db, url);
    fxRatesChanged(database.db);
    await syncFxSource(database.db, live());
    expect((await getProduct(euro, database.db))!.packages[0]!.priceUsdc).toBe(priced * 2n);
    expect((await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id)))[0]!.priceUsdc).toBe(priced);
  });

  it("refreshes hourly from the scheduler, and keeps the stored rates when the feed fails", async () => {
    answer = { status: 200, body: ecbXml(daysAgo(1), { USD: "1.1" }) };
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: url })).toBe(daysAgo(1));
    // Fetched just now: not again within the hour.
    answer = { status: 200, body: ecbXml(today(), { USD: "1.3" }) };
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: url })).toBeUndefined();
    // An hour later the feed is down: logged, and the rates stored stay.
    answer = { status: 503, body: "maintenance" };
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: url }, Date.now() + 3_600_001)).toBeUndefined();
    answer = { status: 200, body: "<html>not rates</html>" };
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: url }, Date.now() + 3_600_001)).toBeUndefined();
    expect((await latestFxRates(database.db))?.asOf).toBe(daysAgo(1));
    answer = { status: 200, body: ecbXml(today(), { USD: "1.3" }) };
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: url }, Date.now() + 3_600_001)).toBe(today());
    // Without FX_RATES_URL nothing is read.
    expect(await refreshFxRatesIfDue(database.db, { fxRatesUrl: undefined })).toBeUndefined();
  });
});

import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { productPackages } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { listCountries, listFeatured, listPopularBrands } from "./browse";
import { getProduct, suggestSlugs } from "./get-product";
import { productInputSchema } from "./product-input";
import { search } from "./search";
import { catalogChanged } from "./snapshot";
import { upsertProducts } from "./store";
import { fixtureProducts, importFixtures } from "@/test/catalog/fixtures";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase(importFixtures);
});
afterAll(() => database?.close());

const slugs = async (q: Parameters<typeof search>[0]) => (await search(q, database.db)).items.map((p) => p.slug);

describe(`search on ${testDriver}`, () => {
  it("browses everything by popularity when q is omitted, empty or *", async () => {
    const all = await slugs({});
    expect(all[0]).toBe("amazon-us");
    expect(all).toHaveLength(fixtureProducts.length - 1);
    expect(await slugs({ q: "*" })).toEqual(all);
    expect(await slugs({ q: "  " })).toEqual(all);
  });

  it("ranks exact brand matches first, above a more popular brand that merely starts with the word", async () => {
    const r = await slugs({ q: "steam" });
    expect(r.slice(0, 2)).toEqual(["steam-us", "steam-de"]);
    expect(r).toContain("steamboat-tours-us");
    expect(r).not.toContain("amazon-us");
  });

  it("matches word prefixes", async () => {
    expect((await slugs({ q: "ste" })).slice(0, 3).sort()).toEqual(["steam-de", "steam-us", "steamboat-tours-us"]);
    expect(await slugs({ q: "goog" })).toEqual(["google-play-us"]);
  });

  it("tolerates typos", async () => {
    expect((await slugs({ q: "stema" }))[0]).toMatch(/^steam-/);
    expect((await slugs({ q: "amazn" }))[0]).toBe("amazon-us");
    expect(await slugs({ q: "playstaton" })).toContain("playstation-gb");
  });

  it("finds by category, country name, region and kind words, all words required", async () => {
    expect(await slugs({ q: "japan" })).toEqual(["amazon-jp"]);
    expect(await slugs({ q: "amazon japan" })).toEqual(["amazon-jp"]);
    expect(await slugs({ q: "airtime nigeria" })).toEqual(["mtn-nigeria-topup"]);
    expect(await slugs({ q: "europe" })).toEqual(["esim-europe"]);
    expect(await slugs({ q: "prepaid" })).toEqual(["visa-prepaid-us"]);
    expect(await slugs({ q: "germany" })).toEqual(expect.arrayContaining(["steam-de", "esim-europe"]));
  });

  it("ignores accents, case and punctuation", async () => {
    expect(await slugs({ q: "CAFE creme" })).toEqual(["cafe-creme-fr"]);
    expect(await slugs({ q: "café-crème!" })).toEqual(["cafe-creme-fr"]);
    expect(await slugs({ q: "googleplay" })).toEqual(["google-play-us"]);
    expect(await slugs({ q: "' OR 1=1 --" })).toEqual([]);
  });

  it("filters by kind and by country, including regional coverage", async () => {
    expect(await slugs({ kind: "esim" })).toEqual(["esim-europe"]);
    expect(await slugs({ kind: "topup", q: "mtn" })).toEqual(["mtn-nigeria-topup"]);
    expect((await slugs({ country: "de" })).sort()).toEqual(["esim-europe", "steam-de"]);
    expect(await slugs({ q: "steam", country: "US" })).toEqual(["steam-us", "steamboat-tours-us"]);
  });

  it("filters by region, any case, browsing and with words (a one-country product has none)", async () => {
    expect(await slugs({ region: "europe" })).toEqual(["esim-europe"]);
    expect(await slugs({ q: "esim", region: "EUROPE" })).toEqual(["esim-europe"]);
    expect(await slugs({ q: "esim", region: "Asia" })).toEqual([]);
    expect(await slugs({ q: "steam", region: "Europe" })).toEqual([]);
    expect(await slugs({ kind: "esim", region: "Europe", country: "DE" })).toEqual(["esim-europe"]);
  });

  it("pages with a total", async () => {
    const first = await search({ pageSize: 4 }, database.db);
    const second = await search({ pageSize: 4, page: 2 }, database.db);
    const beyond = await search({ pageSize: 4, page: 9 }, database.db);
    expect(first.total).toBe(fixtureProducts.length - 1);
    expect(second.total).toBe(first.total);
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(first.total);
    expect(new Set([...first.items, ...second.items].map((p) => p.slug)).size).toBe(8);
  });

  it("hides test products unless asked", async () => {
    expect(await slugs({ q: "test" })).toEqual([]);
    expect(await slugs({ q: "test", includeTest: true })).toEqual(["test-gift-card-code"]);
  });

  it("gives price ranges in USDC from packages and open ranges", async () => {
    const { items } = await search({ q: "amazon japan" }, database.db);
    // 1000 JPY * 0.006612 = 6.612 -> 6.62; 5000 JPY -> 33.06
    expect(items[0]).toMatchObject({ priceFromUsdc: 6_620_000n, priceToUsdc: 33_060_000n, currency: "JPY" });
    const visa = (await search({ q: "visa" }, database.db)).items[0];
    expect(visa).toMatchObject({ priceFromUsdc: 5_000_000n, priceToUsdc: 500_000_000n });
  });

  it("leaves sold-out packages out of the price range while anything is on sale", async () => {
    const soldOut = async (values: string[]) => {
      await database.db.update(productPackages).set({ inStock: true }).where(eq(productPackages.productId, "amazon-jp"));
      if (values.length > 0) {
        await database.db
          .update(productPackages)
          .set({ inStock: false })
          .where(and(eq(productPackages.productId, "amazon-jp"), inArray(productPackages.value, values)));
      }
      catalogChanged(database.db);
    };
    const range = async () => {
      const listed = (await search({ q: "amazon japan" }, database.db)).items[0];
      const detail = await getProduct("amazon-jp", database.db);
      // The list and the product page agree.
      expect([detail?.priceFromUsdc, detail?.priceToUsdc, detail?.inStock]).toEqual([listed?.priceFromUsdc, listed?.priceToUsdc, listed?.inStock]);
      return [listed?.priceFromUsdc, listed?.priceToUsdc, listed?.inStock];
    };
    try {
      await soldOut(["1000"]);
      expect(await range()).toEqual([33_060_000n, 33_060_000n, true]);
      await soldOut(["5000"]);
      expect(await range()).toEqual([6_620_000n, 6_620_000n, true]);
      // All sold out: the usual range, beside "sold out".
      await soldOut(["1000", "5000"]);
      expect(await range()).toEqual([6_620_000n, 33_060_000n, false]);
    } finally {
      await soldOut([]);
    }
    expect(await range()).toEqual([6_620_000n, 33_060_000n, true]);
  });

  it("rejects bad parameters", async () => {
    await expect(search({ country: "Germany" }, database.db)).rejects.toThrow(/alpha-2/);
    await expect(search({ q: "x".repeat(101) }, database.db)).rejects.toThrow(/100/);
    await expect(search({ pageSize: 1000 }, database.db)).rejects.toThrow();
  });
});

describe(`product detail on ${testDriver}`, () => {
  it("returns packages with ids and prices, in order", async () => {
    const p = await getProduct("esim-europe", database.db);
    expect(p?.packages).toEqual([
      expect.objectContaining({
        id: "esim-europe<&>3GB, 30 Days",
        value: "3GB, 30 Days",
        faceValue: "9.5",
        priceUsdc: 9_500_000n,
        dataMb: 3072,
        validityDays: 30,
      }),
      expect.objectContaining({ value: "Unlimited, 7 Days", priceUsdc: 29_000_000n, dataMb: null }),
    ]);
    expect(p?.coverage).toEqual(["FR", "DE", "IT", "ES"]);
    expect(p?.country).toBeNull();
  });

  it("returns the range of an open-amount product", async () => {
    const p = await getProduct("visa-prepaid-us", database.db);
    expect(p?.range).toMatchObject({ min: "5", max: "500", step: "0.01", minPriceUsdc: 5_000_000n });
    expect(p?.packages).toEqual([]);
  });

  it("answers null for an unknown slug and suggests close ones", async () => {
    expect(await getProduct("steam-usa", database.db)).toBeNull();
    expect((await suggestSlugs("steam-usa", 5, database.db)).map((s) => s.slug)).toContain("steam-us");
  });

  it("replaces a product and its packages on re-import", async () => {
    const changed = productInputSchema.parse({ ...fixtureProducts[0], name: "Steam Wallet US", packages: [{ value: "20" }] });
    await upsertProducts(database.db, [changed]);
    const p = await getProduct("steam-us", database.db);
    expect(p?.name).toBe("Steam Wallet US");
    expect(p?.packages.map((x) => x.value)).toEqual(["20"]);
    await upsertProducts(database.db, [productInputSchema.parse(fixtureProducts[0])]);
  });
});

describe(`browse lists on ${testDriver}`, () => {
  it("lists countries by name, brands by popularity, featured products", async () => {
    const countries = await listCountries(database.db);
    expect(countries.map((c) => c.code)).toEqual(["FR", "DE", "IT", "JP", "NG", "ES", "GB", "US"]);
    expect(countries[0]).toEqual({ code: "FR", name: "France" });
    const brands = await listPopularBrands({}, database.db);
    expect(brands[0]).toEqual({ brand: "Amazon", slug: "amazon-us", products: 2 });
    expect((await listPopularBrands({ country: "DE" }, database.db)).map((b) => b.brand)).toEqual(["Steam"]);
    expect((await listFeatured({ kind: "esim" }, database.db)).map((p) => p.slug)).toEqual(["esim-europe"]);
  });
});

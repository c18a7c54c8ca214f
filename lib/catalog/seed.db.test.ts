import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { listCountries } from "./browse";
import { getProduct } from "./get-product";
import { search } from "./search";
import { seedCatalogOnce } from "./seed";
import { countProducts, deleteProduct } from "./store";
import { STORE_GIFT_CARD_SLUG } from "./store-products";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase((db) => seedCatalogOnce(db, true));
});
afterAll(() => database?.close());

describe(`the demo catalog on ${testDriver}`, () => {
  it("is seeded at first start: 500+ products over 40+ countries, with the test family", async () => {
    expect(await countProducts(database.db)).toBeGreaterThanOrEqual(500);
    expect((await listCountries(database.db)).length).toBeGreaterThanOrEqual(40);
    const test = await getProduct("test-esim-product", database.db);
    expect(test?.isTest).toBe(true);
    expect(test?.packages.map((p) => p.priceUsdc)).toEqual([10_000_000n, 20_000_000n, 50_000_000n, 100_000_000n]);
    const refill = await getProduct("test-phone-refill", database.db);
    expect(refill).toMatchObject({ recipientType: "phone_number", kind: "topup" });
    expect(refill?.packages.map((p) => p.value)).toEqual(["10", "20", "50", "100"]);
    // The shop's own gift card beside the demo catalog (seeded after it, whatever the mode).
    expect(await getProduct(STORE_GIFT_CARD_SLUG, database.db)).toMatchObject({ kind: "gift_card", brand: "x402 Storefront", supplier: "store" });
  });

  it("ranks the brand first for a brand search and finds eSIMs and top-ups by country", async () => {
    const steam = await search({ q: "steam" }, database.db);
    expect(steam.items.slice(0, 5).every((p) => p.brand === "Steam")).toBe(true);
    const amazon = await search({ q: "amazon" }, database.db);
    expect(amazon.items[0]?.brand).toBe("Amazon");
    const japanEsim = await search({ q: "japan", kind: "esim" }, database.db);
    expect(japanEsim.items[0]?.slug).toBe("esim-japan");
    const europe = await search({ kind: "esim", country: "FR" }, database.db);
    expect(europe.items.map((p) => p.slug)).toEqual(expect.arrayContaining(["esim-france", "esim-europe"]));
    const ng = await search({ kind: "topup", country: "NG" }, database.db);
    expect(ng.items.map((p) => p.brand)).toEqual(expect.arrayContaining(["MTN", "Airtel", "Glo"]));
  });

  it("is not seeded again once the operator has changed the catalog", async () => {
    expect(await deleteProduct(database.db, "steam-us")).toBe(true);
    await seedCatalogOnce(database.db, true);
    expect(await getProduct("steam-us", database.db)).toBeNull();
  });
});

describe(`seeding switched off on ${testDriver}`, () => {
  it("gives an empty database the shop's own gift card only, once: one the operator deletes stays deleted", async () => {
    const empty = await openTestDatabase((db) => seedCatalogOnce(db, false));
    try {
      expect(await countProducts(empty.db)).toBe(1);
      expect(await getProduct(STORE_GIFT_CARD_SLUG, empty.db)).toMatchObject({ supplier: "store", isTest: false, inStock: true });
      expect(await deleteProduct(empty.db, STORE_GIFT_CARD_SLUG)).toBe(true);
      await seedCatalogOnce(empty.db, false);
      expect(await countProducts(empty.db)).toBe(0);
    } finally {
      await empty.close();
    }
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { products } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { catalogFacts } from "./browse";
import { fxSource, setFxSource, tableFxSource } from "./fx";
import { getProduct } from "./get-product";
import { productInputSchema } from "./product-input";
import { search } from "./search";
import { catalogSnapshot } from "./snapshot";
import { deleteProduct, upsertProducts } from "./store";
import { fixtureProducts, importFixtures } from "@/test/catalog/fixtures";

let database: Database;
const fixture = (slug: string) => productInputSchema.parse(fixtureProducts.find((p) => p.slug === slug));

beforeAll(async () => {
  database = await openTestDatabase(importFixtures);
});
afterAll(() => database?.close());

describe(`the catalog snapshot on ${testDriver}`, () => {
  it("serves lists and products from one read, and sees this process's imports and removals at once", async () => {
    const db = database.db;
    const before = await catalogSnapshot(db);
    expect(await catalogSnapshot(db)).toBe(before);
    expect((await getProduct("steam-us", db))?.name).toBe(fixture("steam-us").name);

    await upsertProducts(db, [{ ...fixture("steam-us"), name: "Steam Wallet Renamed" }]);
    expect((await getProduct("steam-us", db))?.name).toBe("Steam Wallet Renamed");
    expect((await search({ q: "renamed" }, db)).items.map((p) => p.slug)).toEqual(["steam-us"]);
    expect((await search({}, db)).items.find((p) => p.slug === "steam-us")?.name).toBe("Steam Wallet Renamed");

    await deleteProduct(db, "steam-de");
    expect(await getProduct("steam-de", db)).toBeNull();
    expect((await search({ q: "steam" }, db)).items.map((p) => p.slug)).not.toContain("steam-de");
    await upsertProducts(db, [fixture("steam-de"), fixture("steam-us")]);
  });

  it("counts what it sells from the catalog, once per catalog version: an import counts again", async () => {
    const db = database.db;
    const shown = fixtureProducts.map((p) => productInputSchema.parse(p)).filter((p) => !p.isTest);
    const facts = await catalogFacts(db);
    expect(facts.products).toBe(shown.length);
    expect(facts.brands).toBe(new Set(shown.map((p) => p.brand)).size);
    expect(facts.operators).toBe(new Set(shown.filter((p) => p.kind === "topup").map((p) => p.brand)).size);
    expect(await catalogFacts(db)).toBe(facts);

    await upsertProducts(db, [{ ...fixture("steam-us"), slug: "steam-counted", brand: "A Brand Of Its Own" }]);
    expect(await catalogFacts(db)).toMatchObject({ products: facts.products + 1, brands: facts.brands + 1 });
    await deleteProduct(db, "steam-counted");
    expect(await catalogFacts(db)).toEqual(facts);
  });

  it("sees another server's change (a write it was not told of) within a second, by the products table's stamp", async () => {
    const db = database.db;
    const t0 = Date.now() + 10_000;
    const first = await catalogSnapshot(db, t0);
    // Another server's import: rows change under this process without it being told.
    await db.update(products).set({ name: "Amazon Elsewhere", updatedAt: new Date() }).where(eq(products.id, "amazon-us"));
    expect(await catalogSnapshot(db, t0 + 500)).toBe(first);
    const next = await catalogSnapshot(db, t0 + 1_500);
    expect(next).not.toBe(first);
    expect(next.rows.get("amazon-us")?.name).toBe("Amazon Elsewhere");
    // Nothing changed since: the stamp is read again, the catalog is not.
    expect(await catalogSnapshot(db, t0 + 3_000)).toBe(next);
  });

  it("keeps a text search's ranking per catalog version: a change ranks again", async () => {
    const db = database.db;
    await upsertProducts(db, [{ ...fixture("amazon-us"), name: "Amazon Elsewhere" }]);
    expect((await search({ q: "elsewhere" }, db)).items.map((p) => p.slug)).toEqual(["amazon-us"]);
    // The ranking is kept: the database is not asked again while the catalog is the same (a write that leaves
    // the stamp as it was, which no import does, shows it).
    await db.update(products).set({ searchText: "nothing", titleKey: "nothing" }).where(eq(products.id, "amazon-us"));
    expect((await search({ q: "elsewhere" }, db)).items.map((p) => p.slug)).toEqual(["amazon-us"]);
    await upsertProducts(db, [fixture("amazon-us")]);
    expect((await search({ q: "elsewhere" }, db)).items).toEqual([]);
    expect((await search({ q: "amazon" }, db)).items[0]?.name).toBe(fixture("amazon-us").name);
  });

  it("prices a product once per catalog and rates: the same object until an import or new rates", async () => {
    const db = database.db;
    const first = await getProduct("steam-de", db);
    expect(await getProduct("steam-de", db)).toBe(first);
    const shipped = fxSource();
    try {
      // The euro at twice the shipped rate: every euro price doubles (to the cent, rounded up as always).
      setFxSource(
        tableFxSource("2026-01-01", {
          EUR: String((2 * Number(shipped.usdPerUnit("EUR")!.numerator)) / Number(shipped.usdPerUnit("EUR")!.denominator)),
          USD: "1",
        }),
      );
      const repriced = await getProduct("steam-de", db);
      expect(repriced).not.toBe(first);
      // Within a cent (10,000 atomic units): each price is rounded up to the cent.
      expect(Math.abs(Number(repriced!.packages[0]!.priceUsdc) - 2 * Number(first!.packages[0]!.priceUsdc))).toBeLessThanOrEqual(10_000);
    } finally {
      setFxSource(shipped);
    }
    await upsertProducts(db, [fixture("steam-de")]);
    const imported = await getProduct("steam-de", db);
    expect(imported).not.toBe(first);
    expect(imported).toEqual(first);
  });
});

describe(`a large import on ${testDriver}`, () => {
  it("lets other work run between its batches, all in one transaction", async () => {
    const { db } = database;
    const base = fixture("steam-us");
    const inputs = Array.from({ length: 5 }, (_, i) => ({ ...base, slug: `batch-card-${i}`, name: `Batch Card ${i}` }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await upsertProducts(db, inputs, { batchSize: 1 });
    } finally {
      clearInterval(timer);
    }
    // PGlite runs statements in this process: without a turn between batches no timer could fire meanwhile.
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect((await catalogSnapshot(db)).rows.size).toBeGreaterThanOrEqual(5);
    for (const p of inputs) await deleteProduct(db, p.slug);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { providerFor } from "@/lib/fulfilment/providers/provider-for";
import { storeGiftCardProvider } from "@/lib/fulfilment/providers/store-gift-card";
import type { OrderToFulfil } from "@/lib/fulfilment/providers/types";
import { importStock } from "@/lib/catalog/stock";
import { DomainError } from "@/lib/platform/errors";
import { createInvoice, createInvoiceBody } from "@/lib/checkout";
import { getProduct, search } from ".";
import { STORE_GIFT_CARD_SLUG } from "./store-products";

// A mainnet shop whose operator seeded the demo catalog on purpose (SEED_DEMO_CATALOG=true): real USDC buys nothing
// made up. The mode is read once per test file, before anything asks for the configuration.
process.env.NETWORK_MODE = "mainnet";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

const buy = (product_id: string, package_value: string) =>
  createInvoice(
    {
      items: createInvoiceBody.parse({ items: [{ product_id, package_value }] }).items,
      payer: { chainId: "eip155:8453", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" },
    },
    database.db,
  );
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "created",
    (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
  );

describe(`a mainnet shop on ${testDriver} is not a demo`, () => {
  it("neither lists nor sells test products, even when asked for them", async () => {
    const found = await search({ q: "test", includeTest: true }, database.db);
    expect(found.items.filter((p) => p.slug.startsWith("test-") || p.slug.endsWith("-fail"))).toEqual([]);
    expect(await getProduct("test-gift-card-code", database.db)).toBeNull();
    expect(await refusal(buy("test-gift-card-code", "10"))).toBe("unknown_product");
  });

  it("shows a product without a real supplier as out of stock and refuses it, and sells it once codes are imported", async () => {
    const steam = await getProduct("steam-us", database.db);
    expect(steam?.inStock).toBe(false);
    const listed = await search({ q: "steam" }, database.db);
    expect(listed.items.find((p) => p.slug === "steam-us")?.inStock).toBe(false);
    expect(await refusal(buy("steam-us", steam!.packages[0]!.value))).toBe("out_of_stock");

    await importStock(database.db, {
      productId: "steam-us",
      packageValue: steam!.packages[0]!.value,
      codes: [{ code: "REAL-CODE-1", pin: null, expirationDate: null }],
      batch: "b1",
    });
    expect((await getProduct("steam-us", database.db))?.inStock).toBe(true);
    expect(await refusal(buy("steam-us", steam!.packages[0]!.value))).toBe("created");
  });

  it("sells the shop's own gift card at face value, fulfilled by the shop itself", async () => {
    const card = await getProduct(STORE_GIFT_CARD_SLUG, database.db);
    expect(card).toMatchObject({ supplier: "store", inStock: true, isTest: false });
    expect(card?.packages.map((p) => p.priceUsdc)).toEqual([10_000_000n, 25_000_000n, 50_000_000n, 100_000_000n]);
    expect((await search({ q: "x402 storefront gift card" }, database.db)).items[0]).toMatchObject({ slug: STORE_GIFT_CARD_SLUG, inStock: true });
    expect(await refusal(buy(STORE_GIFT_CARD_SLUG, "25"))).toBe("created");
    expect(providerFor({ supplier: "store" } as OrderToFulfil, database.db)).toBe(storeGiftCardProvider);
  });

  it("never delivers a made-up code for an order of the demo supplier", async () => {
    const delivery = await providerFor({ supplier: "demo" } as OrderToFulfil, database.db).deliver({ supplier: "demo" } as OrderToFulfil);
    expect(delivery).toMatchObject({ failed: true, errorCode: "NO_SUPPLIER" });
  });
});

import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProduct, search } from "@/lib/catalog";
import type { Database } from "@/lib/platform/db";
import { inventoryCodes, invoices, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { payInvoice } from "@/test/fulfilment";
import { createInventoryProvider } from "@/lib/fulfilment/providers/inventory";
import type { Wallet } from "@/lib/identity";
import { DomainError } from "@/lib/platform/errors";
import { createInvoice, expireInvoices } from "@/lib/checkout";
import { importStock, stockLevels } from "./stock";

// One product per test group, so that the groups do not share stock.
let database: Database;
const payer: Wallet = { chainId: "eip155:84530402", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" };
const codes = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ code: `${prefix}-${String(i + 1).padStart(4, "0")}`, pin: `${1000 + i}`, expirationDate: "2028-06-30" }));

/** The code an order holds, and whether it was sold. */
async function codeOfOrder(db: Database["db"], orderId: string): Promise<{ code: string; soldAt: Date | null } | null> {
  const [row] = await db.select({ code: inventoryCodes.code, soldAt: inventoryCodes.soldAt }).from(inventoryCodes).where(eq(inventoryCodes.orderId, orderId));
  return row ?? null;
}

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

const buy = (productId: string, packageValue: string, now?: Date, as = payer) =>
  createInvoice({ items: [{ product_id: productId, package_value: packageValue }], payer: as, now }, database.db);
/** Another wallet each (one wallet's unpaid invoices hold a bounded number of codes). */
const someone = (i: number) => ({ chainId: "eip155:8453", address: `0x${(0xabc000 + i).toString(16).padStart(40, "0")}` });

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe(`inventory stock on ${testDriver}`, () => {
  it("imports codes per package, adds nothing on a second import, and shows the levels", async () => {
    const db = database.db;
    const first = await importStock(db, { productId: "test-gift-card-link", packageValue: "10", codes: codes("TEN", 3), batch: "ten.csv" });
    expect(first).toEqual({ productId: "test-gift-card-link", packageValue: "10", imported: 3, alreadyStocked: 0 });
    const again = await importStock(db, {
      productId: "test-gift-card-link",
      packageValue: "test-gift-card-link<&>10",
      codes: codes("TEN", 4),
      batch: "ten-more.csv",
    });
    expect(again).toMatchObject({ imported: 1, alreadyStocked: 3 });

    expect(await stockLevels(db, "test-gift-card-link")).toEqual([
      { productId: "test-gift-card-link", productName: "Test Gift Card (Link)", packageValue: "10", available: 4, reserved: 0, sold: 0 },
      { productId: "test-gift-card-link", productName: "Test Gift Card (Link)", packageValue: "20", available: 0, reserved: 0, sold: 0 },
      { productId: "test-gift-card-link", productName: "Test Gift Card (Link)", packageValue: "50", available: 0, reserved: 0, sold: 0 },
      { productId: "test-gift-card-link", productName: "Test Gift Card (Link)", packageValue: "100", available: 0, reserved: 0, sold: 0 },
    ]);
    const product = await getProduct("test-gift-card-link", db);
    expect(product).toMatchObject({ supplier: "inventory", inStock: true });
    expect(product?.packages.map((p) => [p.value, p.stock])).toEqual([
      ["10", 4],
      ["20", 0],
      ["50", 0],
      ["100", 0],
    ]);
    // A demo product counts no stock.
    expect((await getProduct("test-gift-card-code", db))?.packages[0]?.stock).toBeNull();
  });

  it("refuses stock for an unknown product or package, and for products that are not gift cards", async () => {
    const db = database.db;
    const add = (productId: string, packageValue: string) => importStock(db, { productId, packageValue, codes: codes("X", 1), batch: "x" });
    await expect(add("no-such-product", "10")).rejects.toMatchObject({ code: "stock_refused" });
    await expect(add("test-gift-card-link", "15")).rejects.toThrow(/"15" is not a package of test-gift-card-link: its packages are "10", "20", "50", "100"/);
    await expect(add("test-phone-refill", "10")).rejects.toThrow(/only gift cards take imported codes/);
    await expect(add("store-gift-card", "10")).rejects.toThrow(/the shop's own gift card: the shop issues its cards itself/);
    expect((await getProduct("store-gift-card", db))?.supplier).toBe("store");
  });

  it("reserves a code per item at checkout and refuses a cart that the stock cannot serve, whole", async () => {
    const db = database.db;
    await importStock(db, { productId: "test-gift-card-link", packageValue: "20", codes: codes("TWENTY", 1), batch: "twenty.csv" });
    // Two items of the one code left: the whole cart is refused and nothing stays reserved.
    const both = createInvoice(
      {
        items: [
          { product_id: "test-gift-card-link", package_value: "20" },
          { product_id: "test-gift-card-link", package_value: "20" },
        ],
        payer,
      },
      db,
    );
    expect(await refusal(both)).toMatchObject({ code: "out_of_stock", path: ["items", 1, "package_value"] });
    expect((await stockLevels(db, "test-gift-card-link")).find((l) => l.packageValue === "20")).toMatchObject({ available: 1, reserved: 0 });

    const inv = await buy("test-gift-card-link", "20");
    expect((await stockLevels(db, "test-gift-card-link")).find((l) => l.packageValue === "20")).toMatchObject({ available: 0, reserved: 1 });
    expect(await refusal(buy("test-gift-card-link", "20"))).toMatchObject({ code: "out_of_stock" });
    expect(await refusal(buy("test-gift-card-link", "50"))).toMatchObject({ code: "out_of_stock" });
    const [order] = await db.select().from(orders).where(eq(orders.invoiceId, inv.id));
    expect(order?.supplier).toBe("inventory");
    expect(await codeOfOrder(db, order!.id)).toEqual({ code: "TWENTY-0001", soldAt: null });
  });

  it("gives the code back to the stock when the invoice expires", async () => {
    const db = database.db;
    await importStock(db, { productId: "test-gift-card-link", packageValue: "50", codes: codes("FIFTY", 1), batch: "fifty.csv" });
    const past = new Date(Date.now() - 60 * 60_000);
    const inv = await buy("test-gift-card-link", "50", past);
    expect(await refusal(buy("test-gift-card-link", "50"))).toMatchObject({ code: "out_of_stock" });

    expect(await expireInvoices(db)).toBeGreaterThanOrEqual(1);
    const [row] = await db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, inv.id));
    expect(row?.status).toBe("expired");
    expect((await stockLevels(db, "test-gift-card-link")).find((l) => l.packageValue === "50")).toMatchObject({ available: 1, reserved: 0 });
    // The code is for sale again, and the expired order no longer holds it.
    const next = await buy("test-gift-card-link", "50");
    const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.invoiceId, next.id));
    expect(await codeOfOrder(db, order!.id)).toMatchObject({ code: "FIFTY-0001" });
  });

  it("delivers the reserved code once paid, through the engine's own choice of provider, and the same code if asked again", async () => {
    const db = database.db;
    await importStock(db, { productId: "test-gift-card-link", packageValue: "100", codes: codes("HUNDRED", 2), batch: "hundred.csv" });
    const inv = await buy("test-gift-card-link", "100");
    await payInvoice(db, inv.id);
    const result = await drainDue(db);
    expect(result.delivered).toBeGreaterThanOrEqual(1);

    const [order] = await db.select().from(orders).where(eq(orders.invoiceId, inv.id));
    expect(order).toMatchObject({ status: "delivered" });
    expect(order?.redemption).toEqual({
      code: "HUNDRED-0001",
      pin: "1000",
      expiration_date: "2028-06-30",
      instructions: "Nothing to redeem: the link is made up for the test.",
      extra_fields: {},
    });
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(invoice).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });
    expect((await stockLevels(db, "test-gift-card-link")).find((l) => l.packageValue === "100")).toMatchObject({ available: 1, reserved: 0, sold: 1 });

    // A provider asked again for the same order (after a crash) hands over the same code, not a second one.
    const provider = createInventoryProvider(db);
    const again = await provider.deliver({
      ...order!,
      kind: order!.productKind,
      brand: null,
      country: null,
      recipientType: "none",
      redemptionInstructions: null,
      dataMb: null,
      validityDays: null,
    });
    expect(again).toMatchObject({ failed: false, redemption: { code: "HUNDRED-0001" } });
    expect((await stockLevels(db, "test-gift-card-link")).find((l) => l.packageValue === "100")).toMatchObject({ available: 1, sold: 1 });
  });

  it("shows a sold-out product as out of stock in search and detail", async () => {
    const db = database.db;
    await importStock(db, { productId: "test-gift-card-code-fail", packageValue: "10", codes: codes("LAST", 1), batch: "last.csv" });
    const inSearch = async () =>
      (await search({ q: "Test Gift Card Failing", includeTest: true, page: 1, pageSize: 20 }, db)).items.find((p) => p.slug === "test-gift-card-code-fail");
    expect((await inSearch())?.inStock).toBe(true);
    await buy("test-gift-card-code-fail", "10");
    expect((await inSearch())?.inStock).toBe(false);
    expect((await getProduct("test-gift-card-code-fail", db))?.inStock).toBe(false);
    expect(await refusal(buy("test-gift-card-code-fail", "20"))).toMatchObject({ code: "out_of_stock", message: expect.stringMatching(/out of stock/) });
  });

  it("never gives one code to two orders when many checkouts race for a few codes", async () => {
    const db = database.db;
    const product = "test-gift-card-code";
    await importStock(db, { productId: product, packageValue: "10", codes: codes("RACE", 5), batch: "race.csv" });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => buy(product, "10", undefined, someone(i))));
    const created = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const err of refused) expect(err).toMatchObject({ code: "out_of_stock" });

    // Paid and fulfilled by several drains at once: five deliveries, five different codes, none left.
    for (const inv of created) await payInvoice(db, inv.id);
    await Promise.all([drainDue(db, { limit: 2 }), drainDue(db, { limit: 2 }), drainDue(db, { limit: 2 })]);
    const delivered = await db
      .select({ redemption: orders.redemption, status: orders.status })
      .from(orders)
      .where(
        inArray(
          orders.invoiceId,
          created.map((c) => c.id),
        ),
      );
    expect(delivered.every((o) => o.status === "delivered")).toBe(true);
    const sold = delivered.map((o) => (o.redemption as { code: string }).code).sort();
    expect(sold).toEqual(["RACE-0001", "RACE-0002", "RACE-0003", "RACE-0004", "RACE-0005"]);
    const held = await db.select({ orderId: inventoryCodes.orderId }).from(inventoryCodes).where(eq(inventoryCodes.productId, product));
    expect(new Set(held.map((h) => h.orderId)).size).toBe(5);
    expect(await stockLevels(db, product)).toEqual(
      expect.arrayContaining([expect.objectContaining({ packageValue: "10", available: 0, reserved: 0, sold: 5 })]),
    );
  });
});

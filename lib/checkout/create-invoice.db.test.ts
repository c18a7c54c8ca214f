import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { getProduct } from "@/lib/catalog";
import { affiliates, invoices, orders, products } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import type { Wallet } from "@/lib/identity";
import { createInvoiceBody } from "@/lib/api/x402/cart";
import { createInvoice } from "./create-invoice";
import { DomainError } from "@/lib/platform/errors";

let database: Database;
const payer: Wallet = { chainId: "eip155:84530402", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" };

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
  await database.db.insert(affiliates).values({ id: "Partner42", name: "A partner" });
});
afterAll(() => database?.close());

const create = (items: unknown, extra: { affiliateCode?: string } = {}) =>
  createInvoice({ items: createInvoiceBody.parse({ items }).items, payer, ...extra }, database.db);

async function refusal(items: unknown): Promise<DomainError> {
  const err = await create(items).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe(`invoice creation on ${testDriver}`, () => {
  it("locks the sum of the package prices for the paying wallet, with one order per item", async () => {
    const inv = await create([
      { product_id: "test-gift-card-code", package_value: "10" },
      { product_id: "test-gift-card-code", package_value: "test-gift-card-code<&>50" },
      { product_id: "test-phone-refill", package_value: 20, refill_input: "+1 (415) 555-0134" },
    ]);
    expect(inv.id).toMatch(/^inv_[0-9A-Z]{26}$/);
    expect(inv.priceUsdc).toBe(80_000_000n);
    expect(inv.items.map((i) => [i.packageValue, i.priceUsdc, i.recipient])).toEqual([
      ["10", 10_000_000n, null],
      ["50", 50_000_000n, null],
      ["20", 20_000_000n, "+14155550134"],
    ]);
    const [row] = await database.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(row).toMatchObject({ status: "unpaid", payer: "eip155:0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF", priceUsdc: 80_000_000n, affiliateId: null });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(15 * 60_000);
    const rows = await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id));
    expect(rows.map((o) => o.status)).toEqual(["created", "created", "created"]);
  });

  it("takes eSIM bundles and open-range amounts", async () => {
    const inv = await create([
      { product_id: "test-esim-product", package_value: "1GB, 7 Days" },
      { product_id: "mtn-nigeria-topup", package_value: "2GB, 30 Days", refill_input: "+234 803 123 4567" },
    ]);
    expect(inv.items[0]?.priceUsdc).toBe(10_000_000n);
    expect(inv.items[1]?.recipient).toBe("+2348031234567");
  });

  it("records a known affiliate and ignores unknown or malformed codes", async () => {
    const known = await create([{ product_id: "test-gift-card-code", package_value: "10" }], { affiliateCode: "Partner42" });
    const wrongCase = await create([{ product_id: "test-gift-card-code", package_value: "10" }], { affiliateCode: "partner42" });
    const malformed = await create([{ product_id: "test-gift-card-code", package_value: "10" }], { affiliateCode: "x'; drop" });
    const ids = async (id: string) => (await database.db.select().from(invoices).where(eq(invoices.id, id)))[0]?.affiliateId;
    expect(await ids(known.id)).toBe("Partner42");
    expect(await ids(wrongCase.id)).toBeNull();
    expect(await ids(malformed.id)).toBeNull();
  });

  it("refuses unknown products and packages, naming the field and the packages on offer", async () => {
    expect(await refusal([{ product_id: "no-such-thing", package_value: "10" }])).toMatchObject({
      code: "unknown_product",
      path: ["items", 0, "product_id"],
    });
    const pkg = await refusal([
      { product_id: "test-gift-card-code", package_value: "10" },
      { product_id: "test-gift-card-code", package_value: "15" },
    ]);
    expect(pkg).toMatchObject({ code: "unknown_package", path: ["items", 1, "package_value"], details: { packages: ["10", "20", "50", "100"] } });
    expect(await refusal([{ product_id: "test-gift-card-code", package_value: "steam-us<&>10" }])).toMatchObject({ code: "unknown_package" });
  });

  it("refuses missing, invalid and foreign recipients", async () => {
    expect(await refusal([{ product_id: "test-phone-refill", package_value: "10" }])).toMatchObject({
      code: "missing_field",
      path: ["items", 0, "refill_input"],
    });
    expect(await refusal([{ product_id: "test-phone-refill", package_value: "10", refill_input: "12" }])).toMatchObject({ code: "invalid_phone_number" });
    expect(await refusal([{ product_id: "mtn-nigeria-topup", package_value: "1000", refill_input: "+14155550134" }])).toMatchObject({
      code: "unsupported_operator",
      message: expect.stringMatching(/^not a NG number/),
      path: ["items", 0, "refill_input"],
    });
    // A Glo number is a valid Nigerian number, but not one MTN serves.
    expect(await refusal([{ product_id: "mtn-nigeria-topup", package_value: "1000", refill_input: "+2348051234567" }])).toMatchObject({
      code: "unsupported_operator",
      message: expect.stringMatching(/^MTN serves numbers starting with/),
    });
  });

  it("refuses out-of-stock products and carts over 1000 USDC", async () => {
    const [soldOut] = await database.db.select({ slug: products.id }).from(products).where(eq(products.inStock, false)).limit(1);
    expect(soldOut).toBeDefined();
    const detail = await getProduct(soldOut!.slug, database.db);
    const value = detail!.packages[0]?.value ?? detail!.range!.min;
    expect(await refusal([{ product_id: soldOut!.slug, package_value: value, refill_input: "+14155550134" }])).toMatchObject({ code: "out_of_stock" });
    const big = Array.from({ length: 11 }, () => ({ product_id: "test-gift-card-code", package_value: "100" }));
    expect(await refusal(big)).toMatchObject({ code: "amount_too_large" });
  });

  it("validates the body shape: 1 to 15 items with the fields named", () => {
    expect(createInvoiceBody.safeParse({}).success).toBe(false);
    expect(createInvoiceBody.safeParse({ items: [] }).success).toBe(false);
    expect(createInvoiceBody.safeParse({ items: Array.from({ length: 16 }, () => ({ product_id: "a", package_value: "1" })) }).success).toBe(false);
    expect(createInvoiceBody.safeParse({ items: [{ product_id: "a", package_value: "1", refill_input: "x".repeat(101) }] }).success).toBe(false);
    expect(createInvoiceBody.safeParse({ items: [{ package_value: "1" }] }).error?.issues[0]?.path).toEqual(["items", 0, "product_id"]);
  });
});

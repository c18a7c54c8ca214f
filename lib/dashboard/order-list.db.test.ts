import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { createMerchant } from "@/lib/merchants";
import { allMerchantOrders, parseOrderListQuery, searchMerchantOrders, type OrderListQuery } from "./order-list";
import { defuseFormula, ORDERS_CSV_COLUMNS, ordersCsvHeader, ordersCsvRows } from "./orders-csv";

let database: Database;
let restore: () => void;
let merchantId: string;
const ids: Record<string, string> = {};

const query = (q: Partial<OrderListQuery> = {}): OrderListQuery => ({ sort: "created", dir: "desc", page: 1, ...q });

async function buy(token: string, product: string, value: number) {
  const res = await callRoute(createRoute, "/api/v2/invoices", {
    headers: bearerAuth(token),
    body: { products: [{ product_id: product, value }], payment_method: "balance", auto_pay: true },
  });
  expect(res.status).toBe(200);
  return (res.body.data as { orders: { id: string }[] }).orders[0]!.id;
}

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
  restore = useAsProcessDatabase(database);
  const m = await createMerchant(database.db, { name: "Orders", creditCents: 500_00n });
  const other = await createMerchant(database.db, { name: "Other", creditCents: 100_00n });
  merchantId = m.merchant_id;
  ids.small = await buy(m.api_token, "test-gift-card-code", 10);
  ids.failing = await buy(m.api_token, "test-gift-card-code-fail", 20);
  ids.large = await buy(m.api_token, "test-gift-card-code", 50);
  ids.old = await buy(m.api_token, "test-gift-card-link", 20);
  await buy(other.api_token, "test-gift-card-code", 10);
  await drainDue(database.db);
  await database.db
    .update(orders)
    .set({ createdAt: new Date("2026-01-15T23:30:00Z") })
    .where(eq(orders.id, ids.old));
});
afterAll(async () => {
  restore?.();
  await database?.close();
});

describe(`the dashboard's orders table, on ${testDriver}`, () => {
  it("lists only the merchant's orders, newest first, with the total", async () => {
    const { rows, total, pages } = await searchMerchantOrders(database.db, merchantId, query());
    expect(total).toBe(4);
    expect(pages).toBe(1);
    expect(rows.map((r) => r.id)).toEqual([ids.large, ids.failing, ids.small, ids.old]);
    expect(rows[0]!.paymentMethod).toBe("balance");
  });

  it("searches by product name, product slug, and order or invoice id from its start", async () => {
    const byName = await searchMerchantOrders(database.db, merchantId, query({ q: "link" }));
    expect(byName.rows.map((r) => r.id)).toEqual([ids.old]);
    const bySlug = await searchMerchantOrders(database.db, merchantId, query({ q: "code-fail" }));
    expect(bySlug.rows.map((r) => r.id)).toEqual([ids.failing]);
    const byId = await searchMerchantOrders(database.db, merchantId, query({ q: ids.small!.toLowerCase() }));
    expect(byId.rows.map((r) => r.id)).toEqual([ids.small]);
    const byInvoice = await searchMerchantOrders(database.db, merchantId, query({ q: byId.rows[0]!.invoiceId }));
    expect(byInvoice.rows.map((r) => r.id)).toEqual([ids.small]);
    // An order id in the middle matches nothing; LIKE's wildcards are plain characters.
    expect((await searchMerchantOrders(database.db, merchantId, query({ q: ids.small!.slice(5) }))).total).toBe(0);
    expect((await searchMerchantOrders(database.db, merchantId, query({ q: "%" }))).total).toBe(0);
    expect((await searchMerchantOrders(database.db, merchantId, query({ q: "_" }))).total).toBe(0);
  });

  it("filters by status and by UTC days, the last day included", async () => {
    const refunded = await searchMerchantOrders(database.db, merchantId, query({ status: "refunded" }));
    expect(refunded.rows.map((r) => r.id)).toEqual([ids.failing]);
    expect(refunded.rows[0]!.refundCents).toBeGreaterThan(0n);
    const january = await searchMerchantOrders(database.db, merchantId, query({ from: "2026-01-15", to: "2026-01-15" }));
    expect(january.rows.map((r) => r.id)).toEqual([ids.old]);
    expect((await searchMerchantOrders(database.db, merchantId, query({ from: "2026-01-16", to: "2026-01-31" }))).total).toBe(0);
    expect((await searchMerchantOrders(database.db, merchantId, query({ from: "2026-01-16" }))).total).toBe(3);
  });

  it("sorts by price, product and status either way, and pages without repeats", async () => {
    const cheap = await searchMerchantOrders(database.db, merchantId, query({ sort: "price", dir: "asc" }));
    const prices = cheap.rows.map((r) => r.priceCents!);
    expect(prices).toEqual([...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(cheap.rows[0]!.id).toBe(ids.small);
    const byProduct = await searchMerchantOrders(database.db, merchantId, query({ sort: "product", dir: "asc" }));
    const names = byProduct.rows.map((r) => r.productName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const p = await searchMerchantOrders(database.db, merchantId, query({ sort: "status", page }), 2);
      expect(p.pages).toBe(2);
      expect(p.total).toBe(4);
      seen.push(...p.rows.map((r) => r.id));
    }
    expect(new Set(seen).size).toBe(4);
    expect(seen).toHaveLength(4);
  });

  it("reads the query from a URL's parameters and says which wrong values it ignored", () => {
    expect(parseOrderListQuery({ q: " steam ", status: "delivered", from: "2026-02-01", sort: "price", dir: "asc", page: "2" })).toEqual({
      query: { q: "steam", status: "delivered", from: "2026-02-01", sort: "price", dir: "asc", page: 2 },
      ignored: [],
    });
    const wrong = parseOrderListQuery({ status: "lost", from: "2026-02-30", to: "yesterday", sort: "DROP TABLE", dir: "up", page: "-1", q: "x".repeat(101) });
    expect(wrong.query).toEqual({ sort: "created", dir: "desc", page: 1 });
    expect(wrong.ignored.sort()).toEqual(["dir", "from", "page", "q", "sort", "status", "to"]);
    expect(parseOrderListQuery({ status: ["failed", "delivered"], q: "" }).query).toEqual(query({ status: "failed" }));
    expect(parseOrderListQuery({ order: "price:asc" }).query).toEqual(query({ sort: "price", dir: "asc" }));
    expect(parseOrderListQuery({ order: "price:asc", sort: "product" }).query).toEqual(query({ sort: "product", dir: "asc" }));
  });

  it("exports every matching order as CSV, in batches, without codes", async () => {
    const batches: number[] = [];
    let csv = ordersCsvHeader();
    for await (const rows of allMerchantOrders(database.db, merchantId, query({ sort: "price", dir: "asc" }), 3)) {
      batches.push(rows.length);
      csv += ordersCsvRows(rows);
    }
    expect(batches).toEqual([3, 1]);
    expect(csv).toContain("\r\n");
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual([...ORDERS_CSV_COLUMNS]);
    expect(records.map((r) => r.order_id)).toEqual(
      (await searchMerchantOrders(database.db, merchantId, query({ sort: "price", dir: "asc" }))).rows.map((r) => r.id),
    );
    const failed = records.find((r) => r.order_id === ids.failing)!;
    expect(failed).toMatchObject({ status: "refunded", product_id: "test-gift-card-code-fail", payment_method: "balance" });
    expect(failed.refund_usd).toBe(failed.price_usd);
    expect(failed.error).not.toBe("");
    expect(records.find((r) => r.order_id === ids.small)!.price_usd).toMatch(/^\d+\.\d{2}$/);
    // Delivered codes stay out of the file.
    const [delivered] = await database.db.select().from(orders).where(eq(orders.id, ids.small!));
    const code = (delivered!.redemption as { code?: string }).code;
    expect(code).toBeTruthy();
    expect(csv).not.toContain(code);
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    expect(defuseFormula('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(defuseFormula("+1")).toBe("'+1");
    expect(defuseFormula("@SUM")).toBe("'@SUM");
    expect(defuseFormula("Steam 10")).toBe("Steam 10");
  });
});

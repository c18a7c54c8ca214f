import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { invoices } from "@/lib/platform/db/schema";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { createMerchant } from "@/lib/merchants";
import { PAYMENT_FAILED } from "@/lib/checkout/effective-status";
import { merchantStatus } from "@/lib/checkout/merchant-invoice-view";
import { INVOICE_LIST_STATUSES, invoiceListParams, parseInvoiceListQuery, searchMerchantInvoices } from "./dashboard-invoice-list";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

async function invoice(token: string, products: string[], autoPay: boolean) {
  const res = await callRoute(createRoute, "/api/v2/invoices", {
    headers: bearerAuth(token),
    body: { products: products.map((p) => ({ product_id: p, value: 10 })), payment_method: "balance", auto_pay: autoPay },
  });
  expect(res.status).toBe(200);
  return (res.body.data as { id: string }).id;
}

describe(`the dashboard's invoices table, on ${testDriver}`, () => {
  it("lists the merchant's invoices newest first with their orders, filters by the status clients read, and searches", async () => {
    const m = await createMerchant(database.db, { name: "Invoices", creditCents: 100_00n });
    const other = await createMerchant(database.db, { name: "Other", creditCents: 100_00n });
    const complete = await invoice(m.api_token, ["test-gift-card-code", "test-gift-card-code-fail", "test-gift-card-code"], true);
    const unpaid = await invoice(m.api_token, ["test-gift-card-link"], false);
    await invoice(other.api_token, ["test-gift-card-code"], true);
    await drainDue(database.db);

    const all = await searchMerchantInvoices(database.db, m.merchant_id, { page: 1 });
    expect(all.total).toBe(2);
    expect(all.rows.map((r) => r.id)).toEqual([unpaid, complete]);
    expect(all.rows[1]).toMatchObject({ orderCount: 3, status: "complete" });
    expect(all.rows[1]!.productNames).toHaveLength(2);

    const ids = async (q: Parameters<typeof searchMerchantInvoices>[2], now?: Date) =>
      (await searchMerchantInvoices(database.db, m.merchant_id, q, now)).rows.map((r) => r.id);
    expect(await ids({ page: 1, status: "complete" })).toEqual([complete]);
    expect(await ids({ page: 1, status: "unpaid" })).toEqual([unpaid]);
    expect(await ids({ page: 1, status: "denied" })).toEqual([]);
    // Past its expiry an unpaid invoice reads denied, before any sweep has marked it.
    const later = new Date(Date.now() + 2 * 86_400_000);
    expect(await ids({ page: 1, status: "denied" }, later)).toEqual([unpaid]);
    expect(await ids({ page: 1, status: "unpaid" }, later)).toEqual([]);
    // A payment being settled holds it (unpaid, whatever the time); once given back after an accepted payment failed,
    // it reads payment_error past its expiry: the SQL says what effectiveStatus says.
    const row = async () => (await database.db.select().from(invoices).where(eq(invoices.id, unpaid)))[0]!;
    const set = (values: Partial<typeof invoices.$inferInsert>) => database.db.update(invoices).set(values).where(eq(invoices.id, unpaid));
    for (const [values, status] of [
      [{ paymentClaim: "pay_held" }, "unpaid"],
      [{ paymentClaim: null, errorCode: PAYMENT_FAILED }, "payment_error"],
    ] as const) {
      await set(values);
      expect(merchantStatus(await row(), later)).toBe(status);
      for (const s of INVOICE_LIST_STATUSES) expect((await ids({ page: 1, status: s }, later)).includes(unpaid), s).toBe(s === status);
    }
    await set({ errorCode: null });

    expect(await ids({ page: 1, q: "code-fail" })).toEqual([complete]);
    expect(await ids({ page: 1, q: "Link" })).toEqual([unpaid]);
    expect(await ids({ page: 1, q: complete.slice(0, 12) })).toContain(complete);
    expect(await ids({ page: 1, q: "%" })).toEqual([]);

    const paged = await searchMerchantInvoices(database.db, m.merchant_id, { page: 2 }, new Date(), 1);
    expect(paged).toMatchObject({ total: 2, pages: 2 });
    expect(paged.rows.map((r) => r.id)).toEqual([complete]);
    expect((await searchMerchantInvoices(database.db, m.merchant_id, { page: 9 })).rows).toEqual([]);
  });

  it("reads its query from a URL, dropping values it does not know", () => {
    expect(parseInvoiceListQuery({ q: " inv_01 ", status: "complete", page: "3" })).toEqual({ q: "inv_01", status: "complete", page: 3 });
    expect(parseInvoiceListQuery({ status: "paid", page: "zero", q: "" })).toEqual({ page: 1 });
    expect(invoiceListParams({ q: "x", status: "denied", page: 1 }).toString()).toBe("q=x&status=denied");
  });
});

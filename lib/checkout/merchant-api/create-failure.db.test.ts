import { afterAll, describe, expect, it, vi } from "vitest";
import { GET as balanceRoute } from "@/app/api/v2/accounts/balance/route";
import { POST as createEsims } from "@/app/api/v2/esims/route";
import { POST as createInvoices } from "@/app/api/v2/invoices/route";
import type { Database } from "@/lib/platform/db";
import { invoices } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { createMerchant } from "@/lib/merchants";
import { bearerAuth, callRoute } from "@/test/merchant-api";

// An unexpected failure inside invoice creation (here: the invoice code throws what no refusal table knows).
vi.mock("@/lib/checkout/create-invoice", async (original) => ({
  ...(await original<typeof import("@/lib/checkout/create-invoice")>()),
  createInvoice: vi.fn(async () => {
    throw new Error("the disk is full");
  }),
}));
// The next file of this worker gets the module itself (vitest.setup.ts loads the project's modules anew for it).
afterAll(() => vi.doUnmock("@/lib/checkout/create-invoice"));

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

describe(`an unexpected failure of invoice creation on ${testDriver}`, () => {
  it("answers 500 create_invoice_failed on POST /invoices and POST /esims, and charges nothing", async () => {
    const m = await createMerchant(database.db, { name: "Fails", creditCents: 10_000n });
    const headers = bearerAuth(m.api_token);
    const card = { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true };
    const esim = { products: [{ product_id: "test-esim-product", value: "1GB, 7 Days" }], payment_method: "balance", auto_pay: true };
    for (const [route, path, body] of [
      [createInvoices, "/api/v2/invoices", card],
      [createEsims, "/api/v2/esims", esim],
    ] as const) {
      const res = await callRoute(route, path, { headers, body });
      expect([res.status, res.body.error_code]).toEqual([500, "create_invoice_failed"]);
      expect(res.body.message).not.toContain("disk");
      expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
    }
    expect(((await callRoute(balanceRoute, "/api/v2/accounts/balance", { headers })).body.data as { balance: number }).balance).toBe(10_000);
    expect(await database.db.select().from(invoices)).toEqual([]);
  });
});

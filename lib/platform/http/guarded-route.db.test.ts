import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POST as createInvoiceRoute } from "@/app/api/v2/invoices/route";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { captureLog, type LogLine } from "@/test/log";
import { createMerchant } from "@/lib/merchants";

let database: Database;
let capture: ReturnType<typeof captureLog> | undefined;
processTestDatabase((d) => (database = d), withTestCatalog);
afterEach(() => capture?.restore());

const line = (lines: LogLine[], msg: string) => lines.filter((l) => l.msg === msg);

describe(`log lines name what they are about, on ${testDriver}`, () => {
  it("a merchant's purchase: the request's id and the merchant on its lines, then each order's and invoice's ids", async () => {
    const m = await createMerchant(database.db, { name: "Logs", creditCents: 10_000n });
    capture = captureLog();
    const res = await callRoute(createInvoiceRoute, "/api/v2/invoices", {
      headers: { ...bearerAuth(m.api_token), "X-Request-Id": "req-log-test-0001" },
      body: { products: [{ product_id: "test-gift-card-code", value: 10, quantity: 2 }], payment_method: "balance", auto_pay: true },
    });
    expect(res.status).toBe(200);
    const invoiceId = (res.body.data as { id: string }).id;
    const [created] = line(capture.lines, "invoice created");
    expect(created).toMatchObject({ level: "info", request_id: "req-log-test-0001", merchant_id: m.merchant_id, invoice_id: invoiceId, orders: 2 });

    await drainDue(database.db);
    const delivered = line(capture.lines, "order delivered");
    expect(delivered).toHaveLength(2);
    for (const l of delivered) expect(l).toMatchObject({ invoice_id: invoiceId, order_id: expect.stringMatching(/^ord_/) });
    // No code is ever written.
    const codes = await database.db.select({ redemption: orders.redemption }).from(orders).where(eq(orders.invoiceId, invoiceId));
    const text = JSON.stringify(capture.lines);
    for (const { redemption } of codes) {
      const code = (redemption as { code?: string } | null)?.code;
      expect(code).toBeTruthy();
      expect(text).not.toContain(code);
    }
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { invoices } from "@/lib/platform/db/schema";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { createMerchant } from "@/lib/merchants";
import { drainWebhooks } from "@/lib/webhooks";
import { merchantOverview, needsAttention, startOfUtcDay } from "./stats";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

async function buy(token: string, product: string, extra: Record<string, unknown> = {}) {
  const res = await callRoute(createRoute, "/api/v2/invoices", {
    headers: bearerAuth(token),
    body: { products: [{ product_id: product, value: 10 }], payment_method: "balance", auto_pay: true, ...extra },
  });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; payment: { price: number } };
}

describe(`the dashboard overview's figures, on ${testDriver}`, () => {
  it("counts paid orders less refunds per UTC day, over today, 7 and 30 days, and orders by status", async () => {
    const m = await createMerchant(database.db, { name: "Figures", creditCents: 100_00n });
    const other = await createMerchant(database.db, { name: "Other", creditCents: 100_00n });
    const kept = await buy(m.api_token, "test-gift-card-code");
    await buy(m.api_token, "test-gift-card-code-fail");
    const older = await buy(m.api_token, "test-gift-card-code");
    await buy(other.api_token, "test-gift-card-code");
    await drainDue(database.db);
    // One sale ten days ago: in the 30 days, not in the 7.
    const now = new Date();
    const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000);
    await database.db.update(invoices).set({ paidAt: tenDaysAgo }).where(eq(invoices.id, older.id));

    const o = await merchantOverview(database.db, m.merchant_id, now);
    const price = BigInt(kept.payment.price);
    expect(o.today).toEqual({ cents: price, orders: 1 });
    expect(o.week).toEqual({ cents: price, orders: 1 });
    expect(o.month).toEqual({ cents: 2n * price, orders: 2 });
    expect(o.daily).toHaveLength(30);
    expect(o.daily.at(-1)).toEqual({ day: startOfUtcDay(now).toISOString().slice(0, 10), cents: price, orders: 1 });
    expect(o.daily.find((d) => d.day === tenDaysAgo.toISOString().slice(0, 10))).toMatchObject({ cents: price, orders: 1 });
    expect(o.ordersByStatus).toEqual({ created: 0, processing: 0, delivered: 2, failed: 0, refunded: 1 });

    const nothing = await merchantOverview(database.db, (await createMerchant(database.db, { name: "New" })).merchant_id, now);
    expect(nothing.month).toEqual({ cents: 0n, orders: 0 });
    expect(nothing.daily.every((d) => d.cents === 0n)).toBe(true);
  });

  it("lists paid orders that failed and failing webhooks that need attention, newest first, for this merchant only", async () => {
    const m = await createMerchant(database.db, { name: "Attention", creditCents: 100_00n });
    await buy(m.api_token, "test-gift-card-code-fail");
    // Nothing listens on port 9: the message's first attempt fails and it waits for a retry.
    await buy(m.api_token, "test-gift-card-code", { webhook_url: "http://127.0.0.1:9/hook" });
    await drainDue(database.db);
    await drainWebhooks(database.db, { mode: "devnet" });

    // An invoice that ends unpaid fails its orders, but charged nothing: its status tells, it needs no attention.
    const poor = await createMerchant(database.db, { name: "Poor" });
    const refused = await callRoute(createRoute, "/api/v2/invoices", {
      headers: bearerAuth(poor.api_token),
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true },
    });
    expect(refused.body.error_code).toBe("balance_too_low");
    expect(await needsAttention(database.db, poor.merchant_id)).toEqual([]);

    const items = await needsAttention(database.db, m.merchant_id);
    expect(items.map((i) => [i.kind, i.status])).toEqual(
      expect.arrayContaining([
        ["order", "refunded"],
        ["webhook", "pending"],
      ]),
    );
    const hook = items.find((i) => i.kind === "webhook");
    expect(hook).toMatchObject({ url: "http://127.0.0.1:9/hook", attempts: 1 });
    expect(await needsAttention(database.db, (await createMerchant(database.db, { name: "Calm" })).merchant_id)).toEqual([]);
  });
});

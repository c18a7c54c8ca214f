import { asc, eq, inArray } from "drizzle-orm";
import { HttpRequestError } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import type { Wallet } from "@/lib/identity";
import { createInvoice, type CartItem } from "@/lib/checkout";
import { claimDueOrders, drainDue, fulfilOrder, releaseClaims } from "./engine";
import { createDemoProvider } from "./providers/demo";
import { isLuhnValid } from "@/lib/catalog/iccid";
import type { FulfilmentProvider, Redemption } from "./providers/types";
import { payInvoice } from "@/test/fulfilment";

let database: Database;
const payer: Wallet = { chainId: "eip155:84530402", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" };
const demo = createDemoProvider("engine test key");

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

const item = (product_id: string, package_value: string, refill_input?: string): CartItem => ({
  product_id,
  package_value,
  ...(refill_input ? { refill_input } : {}),
});

async function paidInvoice(items: CartItem[], now = new Date()): Promise<string> {
  const inv = await createInvoice({ items, payer, now }, database.db);
  await payInvoice(database.db, inv.id, undefined, now);
  return inv.id;
}

async function invoiceRow(id: string) {
  const [row] = await database.db.select().from(invoices).where(eq(invoices.id, id));
  return row!;
}

async function orderRows(invoiceId: string) {
  return database.db.select().from(orders).where(eq(orders.invoiceId, invoiceId)).orderBy(asc(orders.position));
}

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

/** Throws (a transient failure) the first `failures` times each order is asked for, then delivers as the demo does. */
function flaky(failures: number): FulfilmentProvider & { calls: number } {
  const seen = new Map<string, number>();
  return {
    calls: 0,
    async deliver(order) {
      this.calls++;
      const n = (seen.get(order.id) ?? 0) + 1;
      seen.set(order.id, n);
      if (n <= failures) throw new Error(`supplier timeout #${n}`);
      return demo.deliver(order);
    },
  };
}

describe(`fulfilment engine on ${testDriver}`, () => {
  it("leaves unpaid invoices alone, then delivers a paid one's codes and completes it", async () => {
    const unpaid = await createInvoice({ items: [item("test-gift-card-code", "10")], payer }, database.db);
    expect((await drainDue(database.db, { provider: demo })).claimed).toBe(0);
    expect((await orderRows(unpaid.id))[0]).toMatchObject({ status: "created", attempts: 0, runAt: null });

    const id = await paidInvoice([item("test-gift-card-code", "10"), item("test-gift-card-link", "20")]);
    expect(await invoiceRow(id)).toMatchObject({ status: "paid", deliveryStatus: "pending" });
    const result = await drainDue(database.db, { provider: demo });
    expect(result).toMatchObject({ claimed: 2, delivered: 2, failed: 0, retry: 0, lost: 0 });

    const inv = await invoiceRow(id);
    expect(inv).toMatchObject({ status: "complete", deliveryStatus: "all_delivered", errorCode: null });
    expect(inv.completedAt).toBeInstanceOf(Date);
    const [code, link] = await orderRows(id);
    expect(code).toMatchObject({ status: "delivered", attempts: 1, lockedUntil: null, lastError: null, errorCode: null });
    expect(code!.deliveredAt).toBeInstanceOf(Date);
    const codeRedemption = code!.redemption as Redemption;
    expect(codeRedemption.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(codeRedemption.pin).toMatch(/^\d{4}$/);
    expect(codeRedemption.instructions).toMatch(/made up for the test/);
    expect((link!.redemption as Redemption).link).toMatch(/^https:\/\/redeem\.example\//);
    // The unpaid invoice is still untouched.
    expect(await invoiceRow(unpaid.id)).toMatchObject({ status: "unpaid" });
  });

  it("delivers eSIMs (ICCID, LPA QR code, bundle) and top-ups (phone and operator)", async () => {
    const id = await paidInvoice([item("test-esim-product", "3GB, 30 Days"), item("test-phone-refill", "20", "+1 (415) 555-0134")]);
    await drainDue(database.db, { provider: demo });
    const [esim, topup] = await orderRows(id);
    const e = esim!.redemption as Redemption;
    expect(isLuhnValid(e.iccid!)).toBe(true);
    expect(e.iccid).toMatch(/^89\d{17,18}$/);
    const profile = e.esim!;
    if ("topup" in profile) throw new Error("a new eSIM was expected, not a top-up");
    expect(e).toMatchObject({ barcode_format: "QRCODE", barcode_value: profile.lpa });
    expect(profile.lpa).toBe(`LPA:1$${profile.smdp}$${profile.matching_id}`);
    expect(e.esim!.bundle).toEqual({ value: "3GB, 30 Days", data_mb: 3072, validity_days: 30 });
    expect((topup!.redemption as Redemption).topup).toMatchObject({ phone_number: "+14155550134", operator: "Test Products" });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });
  });

  it("completes a cart with a failing product with an error code and a partial delivery", async () => {
    const id = await paidInvoice([item("test-gift-card-code", "10"), item("test-gift-card-code-fail", "20")]);
    expect(await drainDue(database.db, { provider: demo })).toMatchObject({ delivered: 1, failed: 1 });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "partially_delivered", errorCode: "PARTIAL_FULFILMENT" });
    const [ok, failed] = await orderRows(id);
    expect(ok!.status).toBe("delivered");
    expect(failed).toMatchObject({ status: "failed", errorCode: "PROVIDER_REJECTED", redemption: null, lockedUntil: null });
    expect(failed!.lastError).toMatch(/rejected/);
  });

  it("completes an invoice whose every order failed as ALL_FAILED", async () => {
    const id = await paidInvoice([item("test-gift-card-code-fail", "10"), item("test-phone-refill-fail", "10", "+14155550134")]);
    await drainDue(database.db, { provider: demo });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "failed", errorCode: "ALL_FAILED" });
  });

  it("retries transient failures with exponential backoff, then delivers", async () => {
    const t0 = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "20")], t0);
    const provider = flaky(2);

    expect(await drainDue(database.db, { provider, now: t0 })).toMatchObject({ claimed: 1, retry: 1 });
    let [o] = await orderRows(id);
    expect(o).toMatchObject({ status: "processing", attempts: 1, lockedUntil: null, lastError: "supplier timeout #1" });
    expect(o!.runAt).toEqual(at(t0, 2_000));
    expect(await invoiceRow(id)).toMatchObject({ status: "fulfilling", deliveryStatus: "delivering" });

    // Not due before its backoff has passed.
    expect((await drainDue(database.db, { provider, now: at(t0, 1_999) })).claimed).toBe(0);
    expect(await drainDue(database.db, { provider, now: at(t0, 2_000) })).toMatchObject({ claimed: 1, retry: 1 });
    [o] = await orderRows(id);
    expect(o).toMatchObject({ attempts: 2, lastError: "supplier timeout #2" });
    expect(o!.runAt).toEqual(at(t0, 2_000 + 4_000));

    expect((await drainDue(database.db, { provider, now: at(t0, 5_999) })).claimed).toBe(0);
    expect(await drainDue(database.db, { provider, now: at(t0, 6_000) })).toMatchObject({ claimed: 1, delivered: 1 });
    [o] = await orderRows(id);
    expect(o).toMatchObject({ status: "delivered", attempts: 3, lastError: null });
    expect(provider.calls).toBe(3);
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });
  });

  it("fails an order for good once its attempts are used up", async () => {
    let now = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "10")], now);
    const provider = flaky(Infinity);
    for (let i = 0; i < 3; i++) {
      await drainDue(database.db, { provider, now, maxAttempts: 3 });
      now = at(now, 60_000);
    }
    const [o] = await orderRows(id);
    expect(o).toMatchObject({ status: "failed", attempts: 3, errorCode: "RETRIES_EXHAUSTED", lastError: "supplier timeout #3" });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", errorCode: "ALL_FAILED" });
  });

  it("counts a provider that does not answer in time as a transient failure", async () => {
    const now = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "10")], now);
    const [claimed] = await claimDueOrders(database.db, { limit: 10, now });
    expect(claimed?.invoiceId).toBe(id);
    const hanging: FulfilmentProvider = { deliver: () => new Promise(() => {}) };
    expect(await fulfilOrder(database.db, claimed!, hanging, { now, timeoutMs: 50 })).toBe("retry");
    expect((await orderRows(id))[0]!.lastError).toMatch(/did not answer within/);
    await drainDue(database.db, { provider: demo, now: at(now, 2_000) });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete" });
  });

  it("recovers from a worker that died holding a claim: the order is taken again once the lock lapses", async () => {
    const t0 = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "50")], t0);
    const [claimed] = await claimDueOrders(database.db, { limit: 10, lockMs: 60_000, now: t0 });
    expect(claimed).toMatchObject({ invoiceId: id, attempts: 1, lockedUntil: at(t0, 60_000), brand: "Test Products" });
    // ... and the worker crashes here: nothing more is written.
    expect((await orderRows(id))[0]).toMatchObject({ status: "processing", attempts: 1, lockedUntil: at(t0, 60_000) });
    expect(await invoiceRow(id)).toMatchObject({ status: "fulfilling" });

    expect((await drainDue(database.db, { provider: demo, now: at(t0, 30_000) })).claimed).toBe(0);
    expect(await drainDue(database.db, { provider: demo, now: at(t0, 60_001) })).toMatchObject({ claimed: 1, delivered: 1 });
    const [o] = await orderRows(id);
    expect(o).toMatchObject({ status: "delivered", attempts: 2 });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });

    // Should the first worker come back after all, its lapsed claim writes nothing.
    expect(await fulfilOrder(database.db, claimed!, flaky(0), { now: at(t0, 70_000) })).toBe("lost");
    expect((await orderRows(id))[0]!.redemption).toEqual(o!.redemption);
  });

  it("frees the live claims of unfinished orders (a server starting on a database of its own), and the dead worker's claim writes nothing", async () => {
    const t0 = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "20")], t0);
    const [claimed] = await claimDueOrders(database.db, { limit: 10, now: t0 });
    expect(claimed).toMatchObject({ invoiceId: id, attempts: 1 });
    const freed = await releaseClaims(database.db, at(t0, 1));
    expect(freed).toContain(claimed!.id);
    const rows = await database.db.select({ status: orders.status, lockedUntil: orders.lockedUntil }).from(orders).where(inArray(orders.id, freed));
    expect(rows.every((r) => ["created", "processing"].includes(r.status) && r.lockedUntil === null)).toBe(true);

    await drainDue(database.db, { provider: demo, now: at(t0, 2) });
    const [o] = await orderRows(id);
    expect(o).toMatchObject({ status: "delivered", attempts: 2 });
    expect(await fulfilOrder(database.db, claimed!, flaky(0), { now: at(t0, 3) })).toBe("lost");
    expect((await orderRows(id))[0]!.redemption).toEqual(o!.redemption);
    expect(await releaseClaims(database.db, at(t0, 4))).not.toContain(claimed!.id);
  });

  it("finishes an invoice left without its roll-up by a worker that died after recording the last order", async () => {
    const now = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "10")], now);
    const [claimed] = await claimDueOrders(database.db, { limit: 10, now });
    // The order's outcome was written, the roll-up never ran.
    await database.db
      .update(orders)
      .set({ status: "delivered", redemption: { extra_fields: {} }, lockedUntil: null })
      .where(eq(orders.id, claimed!.id));
    expect(await invoiceRow(id)).toMatchObject({ status: "fulfilling" });
    expect(await drainDue(database.db, { provider: demo })).toMatchObject({ claimed: 0, recoveredInvoices: 1 });
    expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });
  });

  it("delivers each order exactly once when two drains run at the same time", async () => {
    const ids = [
      await paidInvoice(Array.from({ length: 5 }, () => item("test-gift-card-code", "10"))),
      await paidInvoice([item("test-esim-product", "1GB, 7 Days"), item("test-gift-card-link", "10"), item("test-phone-refill", "10", "+14155550134")]),
    ];
    const calls = new Map<string, number>();
    const counting: FulfilmentProvider = {
      async deliver(order) {
        calls.set(order.id, (calls.get(order.id) ?? 0) + 1);
        // Long enough for the other drain to claim meanwhile on a real server.
        await new Promise((r) => setTimeout(r, 20));
        return demo.deliver(order);
      },
    };
    const [a, b] = await Promise.all([drainDue(database.db, { provider: counting, limit: 2 }), drainDue(database.db, { provider: counting, limit: 2 })]);
    // Both drains took part, each claiming orders the other skipped.
    expect(a.claimed).toBeGreaterThan(0);
    expect(b.claimed).toBeGreaterThan(0);
    expect(a.claimed + b.claimed).toBe(8);
    expect(a.delivered + b.delivered).toBe(8);
    expect(a.lost + b.lost).toBe(0);
    const rows = [...(await orderRows(ids[0]!)), ...(await orderRows(ids[1]!))];
    expect(rows.map((o) => [o.status, o.attempts])).toEqual(rows.map(() => ["delivered", 1]));
    expect([...calls.values()]).toEqual(rows.map(() => 1));
    for (const id of ids) expect(await invoiceRow(id)).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });
  });

  it("keeps a supplier's or node's error without its URL's key", async () => {
    const now = new Date();
    const id = await paidInvoice([item("test-gift-card-code", "10")], now);
    const [claimed] = await claimDueOrders(database.db, { limit: 10, now });
    expect(claimed?.invoiceId).toBe(id);
    const refused: FulfilmentProvider = {
      deliver: () => Promise.reject(new HttpRequestError({ url: "https://rpc.example/v2/SECRETKEY", status: 429, body: { method: "eth_call" } })),
    };
    expect(await fulfilOrder(database.db, claimed!, refused, { now })).toBe("retry");
    const [o] = await orderRows(id);
    expect(o!.lastError).toContain("URL: https://rpc.example");
    expect(o!.lastError).not.toContain("SECRETKEY");
  });
});

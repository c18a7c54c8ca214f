import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import type { Wallet } from "@/lib/identity";
import { createInvoice, type CartItem } from "@/lib/checkout";
import { createDemoProvider } from "./providers/demo";
import { refundDue, refundFailedOrders, type Payout } from "./refund";
import { fakePayout, fulfilledInvoice as fulfilledInvoiceIn, item, TEST_PAYMENT } from "@/test/fulfilment";

let database: Database;
const payer: Wallet = { chainId: "eip155:84530402", address: TEST_PAYMENT.payer };
const demo = createDemoProvider("refund test key");

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

const fulfilledInvoice = (items: CartItem[], payment?: { network: string; payer: string }) =>
  fulfilledInvoiceIn(database.db, { items, payer, payment, provider: demo });

const orderRows = (invoiceId: string) => database.db.select().from(orders).where(eq(orders.invoiceId, invoiceId)).orderBy(asc(orders.position));

describe(`refunds on ${testDriver}`, () => {
  it("refunds a partially fulfilled invoice's failed order with exactly one payout of its price", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code", "10"), item("test-gift-card-code-fail", "20")]);
    const { payout, calls } = fakePayout();

    expect(await refundFailedOrders(database.db, id, payout)).toEqual({ invoiceId: id, orders: 1, amountUsdc: 20_000_000n, tx: "0xrefund1" });
    expect(calls).toEqual([{ to: TEST_PAYMENT, amount: 20_000_000n }]);
    const [delivered, refunded] = await orderRows(id);
    expect(delivered).toMatchObject({ status: "delivered", refundUsdc: null, refundTx: null });
    expect(refunded).toMatchObject({ status: "refunded", errorCode: "PROVIDER_REJECTED", refundUsdc: 20_000_000n, refundTx: "0xrefund1", lockedUntil: null });
    // The invoice keeps its final status: a refunded order counts as failed.
    const [inv] = await database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(inv).toMatchObject({ status: "complete", deliveryStatus: "partially_delivered", errorCode: "PARTIAL_FULFILMENT" });

    // Nothing is paid twice.
    expect(await refundFailedOrders(database.db, id, payout)).toBeNull();
    expect(await refundDue(database.db, payout)).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("sums an invoice's failed orders into one payout and records it on each", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10"), item("test-phone-refill-fail", "50", "+14155550134")]);
    const { payout, calls } = fakePayout();
    const refunds = await refundDue(database.db, payout);
    expect(refunds).toEqual([{ invoiceId: id, orders: 2, amountUsdc: 60_000_000n, tx: "0xrefund1" }]);
    expect(calls).toEqual([{ to: TEST_PAYMENT, amount: 60_000_000n }]);
    expect((await orderRows(id)).map((o) => [o.status, o.refundUsdc, o.refundTx])).toEqual([
      ["refunded", 10_000_000n, "0xrefund1"],
      ["refunded", 50_000_000n, "0xrefund1"],
    ]);
  });

  it("pays back on the network and to the address the payment came from", async () => {
    const solana = { network: "solana:LocaLnet1111111111111111111111111", payer: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" };
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10")], solana);
    const { payout, calls } = fakePayout();
    await refundFailedOrders(database.db, id, payout);
    expect(calls).toEqual([{ to: solana, amount: 10_000_000n }]);
  });

  it("keeps a refund whose payout failed, with the error, and tries again after a minute", async () => {
    const now = new Date();
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "20")]);
    const { payout, calls, failOnce } = fakePayout();
    failOnce();
    await expect(refundFailedOrders(database.db, id, payout, { now })).rejects.toThrow("RPC unreachable");
    const [o] = await orderRows(id);
    expect(o).toMatchObject({ status: "failed", refundTx: null, lastError: "refund: RPC unreachable" });
    expect(o!.lockedUntil).toEqual(new Date(now.getTime() + 60_000));

    expect(await refundDue(database.db, payout, { now: new Date(now.getTime() + 30_000) })).toEqual([]);
    expect(await refundDue(database.db, payout, { now: new Date(now.getTime() + 60_001) })).toMatchObject([{ invoiceId: id, amountUsdc: 20_000_000n }]);
    expect(calls).toHaveLength(1);
    expect((await orderRows(id))[0]).toMatchObject({ status: "refunded", refundUsdc: 20_000_000n });
  });

  it("never refunds an order that was delivered, or an invoice that was not paid", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code", "10")]);
    const unpaid = await createInvoice({ items: [item("test-gift-card-code-fail", "10")], payer }, database.db);
    const { payout, calls } = fakePayout();
    expect(await refundFailedOrders(database.db, id, payout)).toBeNull();
    expect(await refundFailedOrders(database.db, unpaid.id, payout)).toBeNull();
    expect(calls).toEqual([]);
  });

  it("lets only one of two concurrent refunds of the same invoice pay", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10")]);
    const { payout, calls } = fakePayout();
    const results = await Promise.all([refundFailedOrders(database.db, id, payout), refundFailedOrders(database.db, id, payout)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });
  it("records a replaced transfer with the version that landed, the first one too, and pays once", async () => {
    // A chain where nothing lands until the refund has been replaced once; then the FIRST version is mined (a block
    // that took it just before the dearer one reached the pool).
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10")]);
    const sent: string[] = [];
    let replaced = 0;
    const payout: Payout = {
      stuckAfterMs: 0,
      confirmTimeoutMs: 10_000,
      async sign(_to, _amount, store) {
        const p = { transaction: "0xfirst", raw: "Zmlyc3Q=", expiry: "7" };
        return (await store(p)) ? p : null;
      },
      async send(_network, p) {
        sent.push(p.transaction);
      },
      async replace(_network, p) {
        replaced++;
        return { transaction: `0xdearer${replaced}`, raw: "ZGVhcmVy", expiry: p.expiry };
      },
      async status(_network, versions) {
        // Asked with every version: the stored (dearer) one first, then the first, which is the one mined.
        if (replaced === 0) return { status: "pending" };
        return versions.some((p) => p.transaction === "0xfirst") ? { status: "landed", transaction: "0xfirst" } : { status: "dead" };
      },
    };
    const refund = await refundFailedOrders(database.db, id, payout);
    expect(refund).toEqual({ invoiceId: id, orders: 1, amountUsdc: 10_000_000n, tx: "0xfirst" });
    expect(sent).toEqual(["0xfirst", "0xdearer1"]);
    expect((await orderRows(id))[0]).toMatchObject({ status: "refunded", refundTx: "0xfirst", refundSuperseded: ["0xfirst"], refundRaw: null });
    expect(await refundDue(database.db, payout)).toEqual([]);
  });
});

import { eq } from "drizzle-orm";
import pg from "pg";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { HOLDER_LOCK_CLASS } from "@/lib/platform/db/presence";
import { addressRefunds, chainWatchers, orders, settlements, webhookDeliveries } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { createDemoProvider } from "@/lib/fulfilment/providers/demo";
import { partlyFailedInvoice } from "@/test/fulfilment";
import { openSettlements } from "@/lib/payments/settlements";
import { claimDueDeliveries } from "@/lib/webhooks";
import { enqueueInvoiceMessage, insertTestMerchant } from "@/test/webhooks";
import { handBack } from "./hand-back";

// Every kind of claim a server holds (a refund being followed, a settlement being settled, a webhook being sent) is
// handed back at its stop and freed at start or once its holder is gone: before, only orders in delivery were, and a
// deploy held refunds for their lease.

let database: Database;
const sessions: pg.Client[] = [];
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.end().catch(() => undefined)));
  await database.close();
});

const HOUR = 60 * 60_000;
const base = "eip155:84532";

/** One claim of each kind, held for an hour by `holder`: a refund whose transfer is stored, a settlement, a webhook. */
async function claimsOf(holder: number | null) {
  const wallet = { chainId: base, address: privateKeyToAccount(generatePrivateKey()).address };
  const invoiceId = await partlyFailedInvoice(database.db, wallet, createDemoProvider("hand back test key"));
  const until = new Date(Date.now() + HOUR);
  const [refund] = await database.db
    .update(orders)
    .set({ refundTx: `0x${"ab".repeat(32)}`, refundRaw: "0x02", refundExpiry: "7", lockedUntil: until, lockedBy: holder })
    .where(eq(orders.invoiceId, invoiceId))
    .returning({ id: orders.id, status: orders.status })
    .then((rows) => rows.filter((r) => r.status === "failed"));
  const settlementId = `pay_hand_back_${Math.random().toString(36).slice(2)}`;
  await database.db.insert(settlements).values({
    id: settlementId,
    network: base,
    identity: settlementId,
    purpose: "invoice",
    reference: invoiceId,
    amountUsdc: 1n,
    status: "settling",
    validUntil: new Date(Date.now() + HOUR),
    leaseUntil: until,
    leaseHolder: holder,
  });
  const merchant = await insertTestMerchant(database.db);
  const { id: webhookId } = await enqueueInvoiceMessage(database.db, merchant.id, "https://merchant.example/hook");
  const [delivery] = await claimDueDeliveries(database.db, { limit: 100, lockMs: HOUR }).then((d) => d.filter((x) => x.id === webhookId));
  expect(delivery).toBeDefined();
  await database.db.update(webhookDeliveries).set({ lockedBy: holder }).where(eq(webhookDeliveries.id, webhookId));
  const watcher = `eip155:${Math.floor(Math.random() * 1e9)}`;
  await database.db.insert(chainWatchers).values({ network: watcher, lockedUntil: until, lockedBy: holder });
  // A refund of a payment by address, its transfer stored.
  const addressRefund = `ret_hand_back_${Math.random().toString(36).slice(2)}`;
  await database.db.insert(addressRefunds).values({
    id: addressRefund,
    invoiceId,
    network: base,
    address: "0x000000000000000000000000000000000000bEEF",
    asset: "native",
    currency: "ETH",
    decimals: 18,
    amount: 1n,
    toAddress: wallet.address,
    reason: "test",
    tx: `0x${"cd".repeat(32)}`,
    raw: "AgM=",
    expiry: "3",
    lockedUntil: until,
    lockedBy: holder,
  });
  return { order: refund!.id, settlement: settlementId, webhook: webhookId, watcher, addressRefund };
}

const stillHeld = async (c: { order: string; settlement: string; webhook: string; watcher: string; addressRefund: string }) => {
  const now = new Date();
  const [o] = await database.db.select({ until: orders.lockedUntil }).from(orders).where(eq(orders.id, c.order));
  const [s] = await database.db.select({ until: settlements.leaseUntil }).from(settlements).where(eq(settlements.id, c.settlement));
  const [w] = await database.db.select({ until: webhookDeliveries.lockedUntil }).from(webhookDeliveries).where(eq(webhookDeliveries.id, c.webhook));
  const [n] = await database.db.select({ until: chainWatchers.lockedUntil }).from(chainWatchers).where(eq(chainWatchers.network, c.watcher));
  const [r] = await database.db.select({ until: addressRefunds.lockedUntil }).from(addressRefunds).where(eq(addressRefunds.id, c.addressRefund));
  return {
    order: (o?.until ?? now) > now,
    settlement: (s?.until ?? now) > now,
    webhook: (w?.until ?? now) > now,
    watcher: (n?.until ?? now) > now,
    addressRefund: (r?.until ?? now) > now,
  };
};

describe("handing claims back", () => {
  it("frees one holder's claims at its stop, all of them on a database held alone, and then the work is due at once", async () => {
    const mine = await claimsOf(7_001);
    const theirs = await claimsOf(7_002);
    const freed = await handBack(database.db, { holder: 7_001 }, { why: "test" });
    expect(freed).toEqual({
      orders: [mine.order],
      settlements: [mine.settlement],
      webhooks: [mine.webhook],
      watchers: [mine.watcher],
      addressRefunds: [mine.addressRefund],
    });
    expect(await stillHeld(mine)).toEqual({ order: false, settlement: false, webhook: false, watcher: false, addressRefund: false });
    expect(await stillHeld(theirs)).toEqual({ order: true, settlement: true, webhook: true, watcher: true, addressRefund: true });
    // Due now: the reconciler takes the settlement, a worker the message.
    expect((await openSettlements(database.db, new Date(Date.now() + 1))).map((s) => s.id)).toContain(mine.settlement);
    expect((await claimDueDeliveries(database.db, { limit: 100 })).map((d) => d.id)).toContain(mine.webhook);

    const all = await handBack(database.db, "all", { why: "test" });
    expect(all.orders).toContain(theirs.order);
    expect(all.settlements).toContain(theirs.settlement);
    expect(all.watchers).toContain(theirs.watcher);
    expect(all.addressRefunds).toContain(theirs.addressRefund);
    expect(await stillHeld(theirs)).toEqual({ order: false, settlement: false, webhook: false, watcher: false, addressRefund: false });
  });

  // A claim holder is a session holding an advisory lock (lib/platform/db/presence.ts): a key no session holds is a dead server's.
  // PostgreSQL only: on PGlite one process holds the database, and no other session can hold or lose a lock.
  it.skipIf(testDriver !== "postgres")("frees a dead holder's claims, never a live holder's", async () => {
    const url = (database.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    const live = new pg.Client({ connectionString: url });
    sessions.push(live);
    await live.connect();
    await live.query("SELECT pg_advisory_lock($1, $2)", [HOLDER_LOCK_CLASS, 7_101]);
    const ofLive = await claimsOf(7_101);
    const ofDead = await claimsOf(7_102);
    const ofNone = await claimsOf(null);
    const freed = await handBack(database.db, "dead", { why: "test" });
    expect(freed).toEqual({
      orders: [ofDead.order],
      settlements: [ofDead.settlement],
      webhooks: [ofDead.webhook],
      watchers: [ofDead.watcher],
      addressRefunds: [ofDead.addressRefund],
    });
    expect(await stillHeld(ofLive)).toEqual({ order: true, settlement: true, webhook: true, watcher: true, addressRefund: true });
    expect(await stillHeld(ofNone)).toEqual({ order: true, settlement: true, webhook: true, watcher: true, addressRefund: true });
  });
});

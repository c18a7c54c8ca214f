import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { settlements } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver } from "@/test/db";
import { balanceOf, createMerchant, getTopup, recordTopup, topupIdOf, topupPaymentEffect } from "@/lib/merchants";
import {
  beginSettlement,
  deleteStaleSettlements,
  FAILED_RETENTION_MS,
  finishSettlement,
  nextCheck,
  openSettlements,
  reconcileSettlements,
  RECHECK_MAX_MS,
  RECHECK_MS,
  SETTLED_RETENTION_MS,
  UNDECIDED_WARNING_MS,
  undecidedSettlements,
  type ChainVerdict,
  type Outcome,
} from "./settlements";

// What is kept of settlements, and what the operator is shown of those the chain does not decide.

let database: Database;
processTestDatabase((d) => (database = d));

const HOUR = 60 * 60_000;

async function settlement(outcome: Outcome["status"] | "settling", validUntil: Date, at: Date) {
  const begun = await beginSettlement(
    database.db,
    {
      network: "eip155:84530402",
      identity: `0x${randomBytes(20).toString("hex")}:${randomBytes(32).toString("hex")}`,
      payer: null,
      validUntil,
      purpose: "fee",
      reference: "giftCardSearch",
      amountUsdc: 2_000n,
    },
    undefined,
    at,
  );
  if (!("settlement" in begun)) throw new Error("not recorded");
  const { id } = begun.settlement;
  if (outcome === "settled") await finishSettlement(database.db, id, { status: "settled", transaction: "0xabc" }, {}, at);
  if (outcome === "failed") await finishSettlement(database.db, id, { status: "failed", error: "no" }, {}, at);
  if (outcome === "pending") await finishSettlement(database.db, id, { status: "pending", error: "sent" }, {}, at);
  return id;
}

const exists = async (id: string) => (await database.db.select().from(settlements).where(eq(settlements.id, id))).length === 1;

describe(`settlements kept and shown, on ${testDriver}`, () => {
  it("asks an undecided settlement again later each time, up to a few minutes", () => {
    const now = new Date(0);
    expect(nextCheck(now, 0).getTime()).toBe(RECHECK_MS);
    expect(nextCheck(now, 1).getTime()).toBe(2 * RECHECK_MS);
    expect(nextCheck(now, 50).getTime()).toBe(RECHECK_MAX_MS);
  });

  it("takes open settlements that are due, longest waiting first, and leaves those backing off for later", async () => {
    const now = new Date();
    const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
    const later = new Date(now.getTime() + HOUR);
    const old = await settlement("pending", later, minutesAgo(30));
    const newer = await settlement("pending", later, minutesAgo(10));
    const backingOff = await settlement("pending", later, minutesAgo(60));
    const dueAgain = await settlement("pending", later, minutesAgo(5));
    const held = await settlement("settling", later, now);
    await database.db
      .update(settlements)
      .set({ nextCheckAt: new Date(now.getTime() + 60_000), checks: 3 })
      .where(eq(settlements.id, backingOff));
    await database.db
      .update(settlements)
      .set({ nextCheckAt: minutesAgo(40), checks: 1 })
      .where(eq(settlements.id, dueAgain));
    const open = (await openSettlements(database.db, now)).map((s) => s.id);
    expect(open).toEqual([dueAgain, old, newer]);
    expect(open).not.toContain(held);
    await database.db.delete(settlements);
  });

  it("deletes failed settlements after a day and settled ones a month past their validity, never open ones", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - FAILED_RETENTION_MS - HOUR);
    const longAgo = new Date(now.getTime() - SETTLED_RETENTION_MS - HOUR);
    const failedOld = await settlement("failed", old, old);
    const failedNew = await settlement("failed", now, new Date(now.getTime() - HOUR));
    const settledOld = await settlement("settled", longAgo, longAgo);
    const settledNew = await settlement("settled", old, old);
    const pendingOld = await settlement("pending", longAgo, longAgo);
    expect(await deleteStaleSettlements(database.db, now)).toBe(2);
    expect(await exists(failedOld)).toBe(false);
    expect(await exists(settledOld)).toBe(false);
    expect(await exists(failedNew)).toBe(true);
    expect(await exists(settledNew)).toBe(true);
    expect(await exists(pendingOld)).toBe(true);
    // Out of the way of the next test.
    await database.db.delete(settlements);
  });

  it("goes on with the round when one settlement's outcome cannot be recorded, and keeps the error on that one", async () => {
    const now = new Date();
    const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
    const later = new Date(now.getTime() + HOUR);
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Two top-ups, one transaction" });
    /** A dashboard top-up sent but not confirmed: its settlement pending, its top-up held under its own transaction. */
    async function pendingTopup(at: Date) {
      const begun = await beginSettlement(
        database.db,
        {
          network: "eip155:84530402",
          identity: `0x${randomBytes(20).toString("hex")}:${randomBytes(32).toString("hex")}`,
          payer: null,
          validUntil: later,
          purpose: "topup",
          reference: merchantId,
          amountUsdc: 10_000_000n,
          details: { amountCents: "1000" },
        },
        undefined,
        at,
      );
      if (!("settlement" in begun)) throw new Error("not recorded");
      const transaction = `0x${randomBytes(32).toString("hex")}`;
      await finishSettlement(database.db, begun.settlement.id, { status: "pending", error: "sent, not confirmed", transaction }, {}, at);
      const topup = { id: topupIdOf(begun.settlement.id), merchantId, amountCents: 1000n, network: "eip155:84530402", transaction };
      await recordTopup(database.db, topup, { settled: false, holdMs: HOUR }, at);
      return begun.settlement.id;
    }
    const first = await pendingTopup(minutesAgo(3));
    const second = await pendingTopup(minutesAgo(2));
    const fee = await settlement("pending", later, minutesAgo(1));
    // A lying remote facilitator settled both top-ups in one transaction: the chain's verdict names it for both, and
    // the top-ups' unique (network, transaction) refuses the second.
    const shared = `0x${randomBytes(32).toString("hex")}`;
    const verdicts: Record<string, ChainVerdict> = {
      [first]: { landed: true, transaction: shared },
      [second]: { landed: true, transaction: shared },
      [fee]: { landed: false, final: true, why: "the authorization expired unused" },
    };
    const verdict = async (s: { id: string }) => verdicts[s.id] ?? { landed: false as const, final: false as const };
    const effects = { topup: topupPaymentEffect };

    expect(await reconcileSettlements(database.db, verdict, effects, now)).toEqual({ settled: 1, failed: 1, open: 1 });
    const rows = async () => Object.fromEntries((await database.db.select().from(settlements)).map((r) => [r.id, r]));
    const after = await rows();
    expect(after[first]).toMatchObject({ status: "settled", transaction: shared });
    expect(after[fee]).toMatchObject({ status: "failed", lastError: "the authorization expired unused" });
    expect(after[second]).toMatchObject({
      status: "pending",
      checks: 1,
      nextCheckAt: nextCheck(now, 0),
      lastError: expect.stringMatching(/unique constraint "balance_topups_transaction_idx"/),
    });
    expect(await getTopup(database.db, topupIdOf(second))).toMatchObject({ status: "pending" });
    expect(await balanceOf(database.db, merchantId)).toBe(1000n);

    // The next round does not take it before its time, and then tries it again, later still.
    expect(await reconcileSettlements(database.db, verdict, effects, now)).toEqual({ settled: 0, failed: 0, open: 0 });
    const due = new Date(nextCheck(now, 0).getTime() + 1);
    expect(await reconcileSettlements(database.db, verdict, effects, due)).toEqual({ settled: 0, failed: 0, open: 1 });
    expect((await rows())[second]).toMatchObject({ status: "pending", checks: 2, nextCheckAt: nextCheck(due, 1) });
    // Out of the way of the next test.
    await database.db.delete(settlements);
  });

  it("shows the operator open settlements still undecided well after their authorization expired, the oldest first", async () => {
    const now = new Date();
    expect(await undecidedSettlements(database.db, now)).toEqual({ count: 0 });
    const recent = new Date(now.getTime() - UNDECIDED_WARNING_MS + 60_000);
    await settlement("pending", recent, recent);
    expect((await undecidedSettlements(database.db, now)).count).toBe(0);
    const stale = new Date(now.getTime() - UNDECIDED_WARNING_MS - 60_000);
    const staler = new Date(now.getTime() - 2 * UNDECIDED_WARNING_MS);
    await settlement("pending", stale, stale);
    const oldest = await settlement("settling", staler, staler);
    await settlement("failed", staler, staler);
    const shown = await undecidedSettlements(database.db, now);
    expect(shown.count).toBe(2);
    expect(shown.oldest?.id).toBe(oldest);
  });

  it("keeps a settlement's error without the URLs in it (an RPC key, a facilitator's credentials)", async () => {
    const now = new Date();
    const id = await settlement("settling", new Date(now.getTime() + HOUR), now);
    const error = "HTTP request failed.\n\nURL: https://rpc.example/v2/SECRETKEY\nfrom https://user:SECRETKEY@facilitator.example/settle";
    await finishSettlement(database.db, id, { status: "pending", error }, {}, now);
    const [row] = await database.db.select().from(settlements).where(eq(settlements.id, id));
    expect(row!.lastError).toBe("HTTP request failed.\n\nURL: https://rpc.example\nfrom https://facilitator.example");
  });
});

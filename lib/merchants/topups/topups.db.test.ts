import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { balanceOf, createMerchant, credit, listLedger } from "@/lib/merchants";
import type { Db } from "@/lib/platform/db";
import type { Settlement } from "@/lib/payments/settlements";
import { ledgerPage, ledgerPageQuery, listTopups, recordTopup, topupIdOf, topupPaymentEffect } from "./";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const merchant = async () => (await createMerchant(database.db, { name: "Top-up test" })).merchant_id;
let txCounter = 0;
const txHash = () => `0x${(++txCounter).toString(16).padStart(64, "0")}`;
const NETWORK = "eip155:84532";
let settlementCounter = 0;
/** A settlement of a top-up as lib/payments records it (only the fields the effect reads matter). */
const settlementRow = (merchantId: string, amountCents: bigint, transaction: string): Settlement => ({
  id: `pay_01KTOPUPTEST${String(++settlementCounter).padStart(14, "0")}`,
  network: NETWORK,
  identity: `settlement-${settlementCounter}`,
  purpose: "topup",
  reference: merchantId,
  details: { amountCents: String(amountCents) },
  payer: null,
  amountUsdc: amountCents * 10_000n,
  status: "settled",
  transaction,
  payTo: null,
  sentBlock: null,
  nextCheckAt: null,
  checks: 0,
  validUntil: new Date(),
  leaseUntil: null,
  leaseHolder: null,
  lastError: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  settledAt: new Date(),
});

describe(`balance top-ups on ${testDriver}`, () => {
  it("credits a settled payment once, with a ledger entry, however often it is recorded", async () => {
    const merchantId = await merchant();
    const payment = { merchantId, amountCents: 2550n, network: NETWORK, transaction: txHash(), payer: "0xabc" };
    const first = await recordTopup(database.db, payment, { settled: true });
    expect(first.created).toBe(true);
    expect(first.topup).toMatchObject({ status: "credited", amountCents: 2550n, amountUsdc: 25_500_000n, payer: "0xabc" });
    expect(first.topup.id).toMatch(/^top_[0-9A-Z]{26}$/);
    expect(first.topup.ledgerEntryId).not.toBeNull();

    const again = await Promise.all([recordTopup(database.db, payment, { settled: true }), recordTopup(database.db, payment, { settled: true })]);
    expect(again.map((r) => [r.created, r.topup.id])).toEqual([
      [false, first.topup.id],
      [false, first.topup.id],
    ]);
    expect(await balanceOf(database.db, merchantId)).toBe(2550n);
    const ledger = await listLedger(database.db, merchantId, { limit: 10 });
    expect(ledger.map((e) => [e.kind, e.amountCents, e.balanceAfterCents, e.id])).toEqual([["credit", 2550n, 2550n, first.topup.ledgerEntryId]]);
    expect(ledger[0]?.note).toContain(first.topup.id);
  });

  it("holds a payment sent but not confirmed, then credits it once the chain says it landed, under the landed transaction", async () => {
    const merchantId = await merchant();
    const now = new Date("2026-11-24T10:00:00Z");
    const settlement = settlementRow(merchantId, 1000n, txHash());
    const { topup } = await recordTopup(
      database.db,
      { id: topupIdOf(settlement.id), merchantId, amountCents: 1000n, network: NETWORK, transaction: settlement.transaction! },
      { settled: false, holdMs: 360_000 },
      now,
    );
    expect(topup).toMatchObject({ id: topupIdOf(settlement.id), status: "pending", ledgerEntryId: null, holdUntil: new Date("2026-11-24T10:06:00Z") });
    expect(await balanceOf(database.db, merchantId)).toBe(0n);

    // It landed in another transaction than the one first sent (found through the token's events).
    const landed = { ...settlement, transaction: txHash(), payer: "0xpayer" };
    await database.db.transaction((tx) => topupPaymentEffect.landed(tx as unknown as Db, landed));
    await database.db.transaction((tx) => topupPaymentEffect.landed(tx as unknown as Db, landed));
    expect(await balanceOf(database.db, merchantId)).toBe(1000n);
    const rows = await listTopups(database.db, merchantId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: topup.id, status: "credited", holdUntil: null, transaction: landed.transaction, payer: "0xpayer" });
  });

  it("credits a payment that landed with no pending top-up (its server died while settling)", async () => {
    const merchantId = await merchant();
    const settlement = settlementRow(merchantId, 1200n, txHash());
    await database.db.transaction((tx) => topupPaymentEffect.landed(tx as unknown as Db, settlement));
    expect(await balanceOf(database.db, merchantId)).toBe(1200n);
    expect((await listTopups(database.db, merchantId))[0]).toMatchObject({ id: topupIdOf(settlement.id), status: "credited" });
  });

  it("a pending top-up recorded again as settled is credited then, once", async () => {
    const merchantId = await merchant();
    const payment = { merchantId, amountCents: 500n, network: NETWORK, transaction: txHash() };
    await recordTopup(database.db, payment, { settled: false, holdMs: 60_000 });
    const { topup, created } = await recordTopup(database.db, payment, { settled: true });
    expect([created, topup.status]).toEqual([false, "credited"]);
    await recordTopup(database.db, payment, { settled: true });
    expect(await balanceOf(database.db, merchantId)).toBe(500n);
  });

  it("marks failed a pending top-up whose payment cannot land, and credits nothing", async () => {
    const merchantId = await merchant();
    const settlement = settlementRow(merchantId, 700n, txHash());
    await recordTopup(
      database.db,
      { id: topupIdOf(settlement.id), merchantId, amountCents: 700n, network: NETWORK, transaction: settlement.transaction! },
      { settled: false, holdMs: 60_000 },
    );
    await database.db.transaction((tx) => topupPaymentEffect.failed!(tx as unknown as Db, settlement, { now: new Date(), refused: false }));
    expect((await listTopups(database.db, merchantId)).map((t) => t.status)).toEqual(["failed"]);
    expect(await balanceOf(database.db, merchantId)).toBe(0n);
    expect(await listLedger(database.db, merchantId, { limit: 5 })).toEqual([]);
  });

  it("lists a merchant's top-ups only, newest first", async () => {
    const a = await merchant();
    const b = await merchant();
    await recordTopup(
      database.db,
      { merchantId: a, amountCents: 100n, network: NETWORK, transaction: txHash() },
      { settled: true },
      new Date("2026-11-01T00:00:00Z"),
    );
    await recordTopup(
      database.db,
      { merchantId: a, amountCents: 200n, network: NETWORK, transaction: txHash() },
      { settled: true },
      new Date("2026-11-02T00:00:00Z"),
    );
    await recordTopup(database.db, { merchantId: b, amountCents: 300n, network: NETWORK, transaction: txHash() }, { settled: true });
    expect((await listTopups(database.db, a)).map((t) => t.amountCents)).toEqual([200n, 100n]);
  });

  it("pages the ledger by entry id, newest first, with the payment behind each top-up credit", async () => {
    const merchantId = await merchant();
    const { topup } = await recordTopup(database.db, { merchantId, amountCents: 900n, network: NETWORK, transaction: txHash() }, { settled: true });
    for (let i = 1; i <= 4; i++) await credit(database.db, { merchantId, amountCents: BigInt(i * 100), note: `Operator credit ${i}` });
    const first = await ledgerPage(database.db, merchantId, { limit: 2 });
    expect(first.rows.map((r) => [r.amountCents, r.balanceAfterCents])).toEqual([
      [400n, 1900n],
      [300n, 1500n],
    ]);
    expect(first.older).toBe(first.rows[1]!.id);
    const second = await ledgerPage(database.db, merchantId, { limit: 2, before: first.older! });
    expect(second.rows.map((r) => r.amountCents)).toEqual([200n, 100n]);
    const last = await ledgerPage(database.db, merchantId, { limit: 2, before: second.older! });
    expect(last.older).toBeNull();
    expect(last.rows).toHaveLength(1);
    expect(last.rows[0]).toMatchObject({ amountCents: 900n, topup: { id: topup.id, network: NETWORK, transaction: topup.transaction } });
    expect(first.rows[0]?.topup).toBeNull();
  });

  it("reads ?before= leniently: anything but a positive entry id is the newest page", () => {
    expect(ledgerPageQuery.parse({ before: "42" })).toEqual({ before: 42 });
    for (const before of ["0", "-1", "x", "1.5", ["1", "2"], "99999999999999999999"]) expect(ledgerPageQuery.parse({ before })).toEqual({ before: undefined });
    expect(ledgerPageQuery.parse({})).toEqual({ before: undefined });
  });
});

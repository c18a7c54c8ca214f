import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableFxSource } from "@/lib/catalog/fx";
import type { Database, Db } from "@/lib/platform/db";
import { openDatabase } from "@/lib/platform/db/client";
import { giftCardBatches, giftCards, invoices } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { DomainError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { balanceOf, createMerchant, listLedger } from "@/lib/merchants";
import { batchCards, createBatch, issueBatch, issueDueBatches, MAX_ISSUE_ATTEMPTS } from "@/lib/merchants/gift-card-batches";
import { cardStatement, holdForInvoice, releaseHolds, spendHolds } from ".";
import { CODE_BITS, normalizeCode } from "./codes";

const fx = tableFxSource("2026-11-25", { USD: "1", EUR: "1.25", JPY: "0.0065" });
const noEuro = tableFxSource("2026-11-25", { USD: "1" });

let database: Database;
/** A second server on the same database: its own pool on PostgreSQL, the same instance on PGlite. */
let other: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  const url = testDriver === "postgres" ? (database.pool as unknown as { options: { connectionString: string } }).options.connectionString : undefined;
  other = url ? await openDatabase({ driver: "postgres", url }) : database;
});
afterAll(async () => {
  if (other !== database) await other.close();
  await database?.close();
});

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

async function merchantWith(cents: bigint) {
  return (await createMerchant(database.db, { name: "Batcher", creditCents: cents })).merchant_id;
}

async function openInvoice(db: Db, cents: bigint): Promise<string> {
  const id = newId("inv");
  await db.insert(invoices).values({ id, payer: "merchant:test", priceUsdc: cents * 10_000n, priceCents: cents, expiresAt: new Date(Date.now() + 600_000) });
  return id;
}

describe(`gift card batches on ${testDriver}`, () => {
  it("charges the balance once, issues every card with its own code, and keeps no code in the database", async () => {
    const merchant = await merchantWith(100_000n);
    const batch = await createBatch(database.db, merchant, { quantity: 25, value: 10, currency: "usd" }, fx);
    expect(batch).toMatchObject({ status: "processing", quantity: 25, currency: "USD", valueMinor: 1000n, priceCents: 25_000n });
    expect(await balanceOf(database.db, merchant)).toBe(75_000n);
    const done = await issueBatch(database.db, batch.id);
    expect(done).toMatchObject({ status: "complete", issued: 25 });
    const cards = await batchCards(database.db, batch.id);
    expect(cards).toHaveLength(25);
    expect(new Set(cards.map((c) => c.code)).size).toBe(25);
    for (const c of cards) {
      expect(c.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
      expect(c).toMatchObject({ value: 1000n, balance: 1000n, currency: "USD" });
    }
    expect(CODE_BITS).toBeGreaterThanOrEqual(80);
    // A dump of the table shows neither a code nor its characters in order.
    const dump = JSON.stringify(await database.db.select().from(giftCards).where(eq(giftCards.batchId, batch.id)), (_, v: unknown) =>
      typeof v === "bigint" ? String(v) : v,
    );
    for (const c of cards) expect(dump).not.toContain(normalizeCode(c.code)!.slice(0, 12));
    // Issued once: running it again makes nothing more.
    expect(await issueBatch(database.db, batch.id)).toBeUndefined();
    expect(await batchCards(database.db, batch.id)).toHaveLength(25);
    const ledger = await listLedger(database.db, merchant, { limit: 5 });
    expect(ledger.filter((e) => e.kind === "debit").map((e) => e.amountCents)).toEqual([25_000n]);
  });

  it("prices a card of another currency at the rate of the day, rounded up to the cent", async () => {
    const merchant = await merchantWith(10_000n);
    // 3 x 20 EUR at 1.25 = 75.00 USD; 1,001 JPY at 0.0065 = 6.5065 USD, charged 6.51.
    const euro = await createBatch(database.db, merchant, { quantity: 3, value: "20", currency: "EUR" }, fx);
    const yen = await createBatch(database.db, merchant, { quantity: 1, value: 1001, currency: "JPY" }, fx);
    expect([euro.priceCents, yen.priceCents]).toEqual([7_500n, 651n]);
    expect(await balanceOf(database.db, merchant)).toBe(10_000n - 7_500n - 651n);
    for (const b of [euro, yen]) expect(await issueBatch(database.db, b.id)).toMatchObject({ status: "complete" });
  });

  it("refuses a quantity, value or currency it does not issue, and charges nothing", async () => {
    const merchant = await merchantWith(1_000_000n);
    for (const quantity of [0, -1, 2.5, 1001, "3", null, 1e300]) {
      expect((await refusal(createBatch(database.db, merchant, { quantity, value: 10, currency: "USD" }, fx))).code, String(quantity)).toBe("invalid_quantity");
    }
    for (const currency of ["ZZZ", "US", "", 12, "EUR\u0000"]) {
      expect((await refusal(createBatch(database.db, merchant, { quantity: 1, value: 10, currency }, fx))).code, String(currency)).toBe("invalid_currency");
    }
    // No current rate for a real currency: not supported now.
    expect((await refusal(createBatch(database.db, merchant, { quantity: 1, value: 10, currency: "EUR" }, noEuro))).message).toMatch(
      /no current exchange rate/,
    );
    for (const value of [0, -5, "abc", "1e3", 0.001, "10.001", 1001, 0.5, Number.NaN, "9".repeat(30)]) {
      expect((await refusal(createBatch(database.db, merchant, { quantity: 1, value, currency: "USD" }, fx))).code, String(value)).toBe("invalid_value");
    }
    expect((await refusal(createBatch(database.db, merchant, { quantity: 1, value: 100, currency: "JPY" }, fx))).code).toBe("invalid_value");
    expect(await balanceOf(database.db, merchant)).toBe(1_000_000n);
  });

  it("refuses a batch the balance cannot pay with balance_too_low naming both amounts, and charges nothing", async () => {
    const merchant = await merchantWith(999n);
    const err = await refusal(createBatch(database.db, merchant, { quantity: 1, value: 10, currency: "USD" }, fx));
    expect(err.code).toBe("balance_too_low");
    expect(err.details).toMatchObject({ required: 1000, available: 999, currency: "USD" });
    expect(await balanceOf(database.db, merchant)).toBe(999n);
    expect(await database.db.select().from(giftCardBatches).where(eq(giftCardBatches.merchantId, merchant))).toHaveLength(0);
  });

  it("resumes a batch whose issuing failed and ends partial after repeated failures, giving back the price of the missing cards once", async () => {
    const merchant = await merchantWith(100_000n);
    // A fault in the database itself: every card from place 150 on is refused.
    await database.db.execute(sql`CREATE OR REPLACE FUNCTION gift_card_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.position >= 150 THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`);
    await database.db.execute(sql`CREATE TRIGGER gift_card_fault BEFORE INSERT ON gift_cards FOR EACH ROW EXECUTE FUNCTION gift_card_fault()`);
    try {
      const batch = await createBatch(database.db, merchant, { quantity: 300, value: 1, currency: "USD" }, fx);
      let now = new Date();
      let state = await issueBatch(database.db, batch.id, now);
      expect(state).toMatchObject({ status: "processing", issued: 100, attempts: 1 });
      for (let i = 2; i <= MAX_ISSUE_ATTEMPTS; i++) {
        now = new Date(state!.runAt.getTime() + 1);
        expect(await issueDueBatches(database.db, now)).toBe(1);
        [state] = await database.db.select().from(giftCardBatches).where(eq(giftCardBatches.id, batch.id));
      }
      expect(state).toMatchObject({ status: "partial", issued: 100, refundCents: 20_000n, lastError: expect.stringMatching(/disk full/) });
      expect(await balanceOf(database.db, merchant)).toBe(100_000n - 30_000n + 20_000n);
      expect(await batchCards(database.db, batch.id)).toHaveLength(100);
      // Nothing runs it again.
      expect(await issueDueBatches(database.db, new Date(Date.now() + 3_600_000))).toBe(0);

      const nothing = await createBatch(database.db, merchant, { quantity: 2, value: 1, currency: "USD" }, fx);
      await database.db.execute(sql`CREATE OR REPLACE FUNCTION gift_card_fault() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'disk full'; END $$`);
      for (let i = 0; i < MAX_ISSUE_ATTEMPTS; i++) await issueDueBatches(database.db, new Date(Date.now() + 3_600_000 * (i + 1)));
      const [failed] = await database.db.select().from(giftCardBatches).where(eq(giftCardBatches.id, nothing.id));
      expect(failed).toMatchObject({ status: "failed", issued: 0, refundCents: 200n });
      expect(await balanceOf(database.db, merchant)).toBe(90_000n);
    } finally {
      await database.db.execute(sql`DROP TRIGGER IF EXISTS gift_card_fault ON gift_cards`);
    }
  });
});

describe(`gift card redemption on ${testDriver}`, () => {
  async function oneCard(value: number, currency = "USD") {
    const merchant = await merchantWith(1_000_000n);
    const batch = await createBatch(database.db, merchant, { quantity: 1, value, currency }, fx);
    await issueBatch(database.db, batch.id);
    return (await batchCards(database.db, batch.id))[0]!.code;
  }

  it("pays part of an invoice, gives the hold back once when it is not paid, and spends it when it is", async () => {
    const code = await oneCard(20, "EUR"); // worth 25.00 USD
    const first = await openInvoice(database.db, 1_000n);
    const held = await database.db.transaction((tx) => holdForInvoice(tx, code.toLowerCase(), first, 1_000n, fx));
    expect(held).toMatchObject({ coversCents: 1_000n, amountMinor: 800n });
    const second = await openInvoice(database.db, 4_000n);
    // What is left, 12.00 EUR, pays 15.00 USD of the 40.00.
    expect(await database.db.transaction((tx) => holdForInvoice(tx, code, second, 4_000n, fx))).toMatchObject({ coversCents: 1_500n, amountMinor: 1_200n });
    expect((await refusal(database.db.transaction((tx) => holdForInvoice(tx, code, second, 100n, fx)))).code).toBe("gift_card_empty");
    const [row] = await database.db.select().from(invoices).where(eq(invoices.id, second));
    expect(row?.giftCardCents).toBe(1_500n);

    expect(await database.db.transaction((tx) => releaseHolds(tx, [second]))).toBe(1);
    expect(await database.db.transaction((tx) => releaseHolds(tx, [second]))).toBe(0);
    await database.db.transaction((tx) => spendHolds(tx, first));
    expect(await database.db.transaction((tx) => releaseHolds(tx, [first]))).toBe(0);
    const statement = await cardStatement(database.db, code);
    expect(statement).toMatchObject({ currency: "EUR", value: "20", balance: "12", held: "0" });
    expect(statement.history.map((h) => [h.invoice_id, h.amount, h.status])).toEqual([
      [first, "8", "spent"],
      [second, "12", "released"],
    ]);
  });

  it("refuses a code that names no card, without telling whether it was close", async () => {
    const code = await oneCard(5);
    const wrong = code.slice(0, -1) + (code.endsWith("0") ? "1" : "0");
    for (const guess of [wrong, "", "x".repeat(10_000), "ABCD-\u0000", "\ud800"]) {
      expect((await refusal(cardStatement(database.db, guess))).code).toBe("unknown_gift_card");
    }
  });

  it("spends each unit once when twenty invoices on two servers redeem one code at the same moment", async () => {
    const code = await oneCard(50); // 50.00 USD; twenty invoices of 7.00 each
    const servers = [database.db, other.db];
    const ids = await Promise.all(Array.from({ length: 20 }, () => openInvoice(database.db, 700n)));
    const results = await Promise.allSettled(ids.map((id, i) => servers[i % 2]!.transaction((tx) => holdForInvoice(tx, code, id, 700n, fx))));
    const covered = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.coversCents] : []));
    const refused = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as DomainError).code] : []));
    // Seven whole invoices (49.00) and one dollar of the eighth; the rest find the card empty.
    expect(covered.reduce((a, b) => a + b, 0n)).toBe(5_000n);
    expect(covered.filter((c) => c === 700n)).toHaveLength(7);
    expect(covered.filter((c) => c === 100n)).toHaveLength(1);
    expect(refused).toEqual(Array(12).fill("gift_card_empty"));
    expect((await cardStatement(database.db, code)).balance).toBe("0");
  });
});

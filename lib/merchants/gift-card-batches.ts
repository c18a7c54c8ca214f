import { and, asc, count, desc, eq, lt, lte, sql } from "drizzle-orm";
import type { FxSource } from "@/lib/catalog";
import type { Db } from "@/lib/platform/db";
import { giftCardBatches, giftCards } from "@/lib/platform/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { logFor } from "@/lib/platform/log";
import { formatCode, mintCode, openCode, cardCurrency, centsForMinor, formatCardValue, parseCardValue, type CardCurrency } from "@/lib/gift-cards";
import { BalanceTooLow, purchase } from "./ledger";
import { centsToDecimal } from "@/lib/platform/money";

/** The most cards one batch holds. */
export const BATCH_MAX_QUANTITY = 1000;
/** Each card's value, in US cents at the rate of its issue: from one dollar to a thousand. */
export const CARD_MIN_CENTS = 100n;
export const CARD_MAX_CENTS = 100_000n;
/** Cards written per transaction. */
const CHUNK = 100;
/** Issuing that fails this many times ends the batch (partial or failed) and gives the rest of its price back. */
export const MAX_ISSUE_ATTEMPTS = 5;
/** How long a worker holds a batch it issues: another takes it over after this, if the first died. */
const CLAIM_MS = 60_000;

export type Batch = typeof giftCardBatches.$inferSelect;
export type BatchRequest = { quantity: unknown; value: unknown; currency: unknown };

/** The request checked against the facility's limits: `invalid_quantity`, `invalid_currency`, `invalid_value`. */
export function checkBatchRequest(req: BatchRequest, fx: FxSource): { quantity: number; valueMinor: bigint; card: CardCurrency; cardCents: bigint } {
  const quantity = req.quantity;
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1 || quantity > BATCH_MAX_QUANTITY) {
    throw new DomainError("invalid_quantity", `quantity: a whole number of cards from 1 to ${BATCH_MAX_QUANTITY}.`, { path: ["quantity"] });
  }
  const card = cardCurrency(req.currency, fx);
  const valueMinor = parseCardValue(req.value, card);
  if (valueMinor === undefined)
    throw new DomainError("invalid_value", `value: a positive amount of ${card.currency} with at most ${card.exponent} decimals.`, { path: ["value"] });
  const cardCents = centsForMinor(valueMinor, card);
  if (cardCents < CARD_MIN_CENTS || cardCents > CARD_MAX_CENTS) {
    throw new DomainError("invalid_value", `value: each card is worth 1.00 to 1,000.00 USD (this one ${centsToDecimal(cardCents)} USD).`, { path: ["value"] });
  }
  return { quantity, valueMinor, card, cardCents };
}

/**
 * Creates a batch: its price (each card's value in US cents, rounded up, times the quantity) is taken from the
 * merchant's balance in the transaction that writes the batch, `processing`; `inTransaction` runs in it too (the
 * Idempotency-Key's answer). Its cards are issued afterwards (issueBatch). Nothing is charged if this throws.
 */
export async function createBatch(
  db: Db,
  merchantId: string,
  req: BatchRequest,
  fx: FxSource,
  inTransaction: (tx: Db, batch: Batch) => Promise<void> = async () => undefined,
): Promise<Batch> {
  const { quantity, valueMinor, card, cardCents } = checkBatchRequest(req, fx);
  const id = newId("gcb");
  const priceCents = cardCents * BigInt(quantity);
  return db.transaction(async (tx) => {
    try {
      await purchase.debit(tx, {
        merchantId,
        amountCents: priceCents,
        note: `Gift card batch ${id}: ${quantity} × ${formatCardValue(valueMinor, card)} ${card.currency}`,
      });
    } catch (err) {
      if (err instanceof BalanceTooLow) {
        throw new DomainError("balance_too_low", err.message.replace("this invoice", "this batch"), {
          details: { required: Number(err.requiredCents), available: Number(err.availableCents), currency: "USD" },
        });
      }
      throw err;
    }
    const [batch] = await tx.insert(giftCardBatches).values({ id, merchantId, quantity, valueMinor, currency: card.currency, priceCents }).returning();
    await inTransaction(tx, batch!);
    return batch!;
  });
}

/**
 * Issues a batch's missing cards, a chunk per transaction; each card has its place in the batch, so a second run (after
 * a crash, or by another server once the claim lapsed) makes only the missing ones. Ends `complete`; a failure is retried
 * later (the upkeep), and after MAX_ISSUE_ATTEMPTS the batch ends `partial` or `failed` with the price of the cards
 * not issued given back to the balance, once. Answers the batch as it is now (undefined: another worker holds it).
 */
export async function issueBatch(db: Db, batchId: string, now = new Date()): Promise<Batch | undefined> {
  const [claimed] = await db
    .update(giftCardBatches)
    .set({ runAt: new Date(now.getTime() + CLAIM_MS), updatedAt: now })
    .where(and(eq(giftCardBatches.id, batchId), eq(giftCardBatches.status, "processing"), lte(giftCardBatches.runAt, now)))
    .returning();
  if (!claimed) return undefined;
  const about = logFor({ gift_card_batch_id: batchId });
  try {
    let issued = claimed.issued;
    while (issued < claimed.quantity) {
      const positions = Array.from({ length: Math.min(CHUNK, claimed.quantity - issued) }, (_, i) => issued + i);
      issued = await db.transaction(async (tx) => {
        const rows = positions.map((position) => {
          const minted = mintCode();
          return {
            id: newId("gc"),
            codeHash: minted.hash,
            codeSealed: minted.sealed,
            codeLast4: minted.last4,
            batchId,
            position,
            currency: claimed.currency,
            valueMinor: claimed.valueMinor,
            balanceMinor: claimed.valueMinor,
            createdAt: now,
          };
        });
        // A place already filled (a run before this one) is kept; a code that happened to exist already (2^-100) is
        // skipped too, and its place is filled by the next pass.
        await tx.insert(giftCards).values(rows).onConflictDoNothing();
        const [{ made } = { made: 0 }] = await tx.select({ made: count() }).from(giftCards).where(eq(giftCards.batchId, batchId));
        await tx.update(giftCardBatches).set({ issued: made, updatedAt: new Date() }).where(eq(giftCardBatches.id, batchId));
        return made;
      });
    }
    const [done] = await db
      .update(giftCardBatches)
      .set({ status: "complete", completedAt: new Date(), updatedAt: new Date(), lastError: null })
      .where(and(eq(giftCardBatches.id, batchId), eq(giftCardBatches.status, "processing")))
      .returning();
    about.info({ cards: claimed.quantity }, "gift card batch issued");
    return done ?? (await getBatchRow(db, batchId));
  } catch (err) {
    // The database's own words (a failed query's error carries its cause), never the query: its values hold sealed codes.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const attempts = claimed.attempts + 1;
    if (attempts < MAX_ISSUE_ATTEMPTS) {
      about.warn({ reason, attempt: attempts }, "gift card batch: issuing failed; trying again later");
      const [later] = await db
        .update(giftCardBatches)
        .set({ attempts, lastError: reason.slice(0, 500), runAt: new Date(now.getTime() + 2 ** attempts * 5_000), updatedAt: new Date() })
        .where(and(eq(giftCardBatches.id, batchId), eq(giftCardBatches.status, "processing")))
        .returning();
      return later;
    }
    about.error({ reason }, "gift card batch: issuing failed for good; the cards not issued are refunded");
    return finishShort(db, batchId, reason);
  }
}

/** Ends a batch that could not be issued in full: `partial` or `failed`, the price of the missing cards back to the balance, once. */
async function finishShort(db: Db, batchId: string, reason: string): Promise<Batch | undefined> {
  return db.transaction(async (tx) => {
    const [{ made } = { made: 0 }] = await tx.select({ made: count() }).from(giftCards).where(eq(giftCards.batchId, batchId));
    const [ended] = await tx
      .update(giftCardBatches)
      .set({
        status: made > 0 ? "partial" : "failed",
        issued: made,
        refundCents: sql`(${giftCardBatches.priceCents} / ${giftCardBatches.quantity}) * (${giftCardBatches.quantity} - ${made})`,
        lastError: reason.slice(0, 500),
        completedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(giftCardBatches.id, batchId), eq(giftCardBatches.status, "processing")))
      .returning();
    if (ended && ended.refundCents && ended.refundCents > 0n) {
      await purchase.giveBack(tx, {
        merchantId: ended.merchantId,
        amountCents: ended.refundCents,
        note: `Gift card batch ${batchId}: ${ended.quantity - made} cards not issued`,
      });
    }
    return ended ?? (await getBatchRow(tx, batchId));
  });
}

/** Batches whose issuing is due (new ones whose request died, retries): the upkeep runs them. Answers how many it ran. */
export async function issueDueBatches(db: Db, now = new Date(), limit = 10): Promise<number> {
  const due = await db
    .select({ id: giftCardBatches.id })
    .from(giftCardBatches)
    .where(and(eq(giftCardBatches.status, "processing"), lte(giftCardBatches.runAt, now)))
    .orderBy(asc(giftCardBatches.runAt))
    .limit(limit);
  for (const { id } of due) await issueBatch(db, id, now);
  return due.length;
}

async function getBatchRow(db: Db, batchId: string): Promise<Batch | undefined> {
  const [row] = await db.select().from(giftCardBatches).where(eq(giftCardBatches.id, batchId));
  return row;
}

/** A merchant's batch (undefined for another merchant's: it is not theirs to see). */
export async function getBatch(db: Db, merchantId: string, batchId: string): Promise<Batch | undefined> {
  const [row] = await db
    .select()
    .from(giftCardBatches)
    .where(and(eq(giftCardBatches.id, batchId), eq(giftCardBatches.merchantId, merchantId)));
  return row;
}

export type IssuedCard = { id: string; code: string; value: bigint; balance: bigint; currency: string; createdAt: Date };

/** A batch's cards in their order, with their codes read back (for the batch's merchant only: the caller checked). */
export async function batchCards(db: Db, batchId: string): Promise<IssuedCard[]> {
  const rows = await db.select().from(giftCards).where(eq(giftCards.batchId, batchId)).orderBy(asc(giftCards.position));
  return rows.map((r) => ({
    id: r.id,
    code: formatCode(openCode(r.codeSealed, r.codeHash)),
    value: r.valueMinor,
    balance: r.balanceMinor,
    currency: r.currency,
    createdAt: r.createdAt,
  }));
}

/** A merchant's batches, newest first (ids sort by time), paged by the id of the last one seen (`after`). */
export async function listBatches(db: Db, merchantId: string, page: { limit: number; after?: string }): Promise<Batch[]> {
  return db
    .select()
    .from(giftCardBatches)
    .where(and(eq(giftCardBatches.merchantId, merchantId), page.after !== undefined ? lt(giftCardBatches.id, page.after) : undefined))
    .orderBy(desc(giftCardBatches.id))
    .limit(page.limit);
}

import { and, desc, eq, or } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { balanceTopups } from "@/lib/platform/db/schema";
import { newId } from "@/lib/platform/ids";
import { credit } from "@/lib/merchants/ledger";
import type { SettlementEffect } from "@/lib/payments";
import { centsToUsdc } from "@/lib/platform/money";

export type Topup = typeof balanceTopups.$inferSelect;

export type TopupPayment = {
  /** The top-up's id (by default a new one). */
  id?: string;
  merchantId: string;
  amountCents: bigint;
  network: string;
  transaction: string;
  payer?: string;
};

const noteOf = (t: Pick<Topup, "id" | "network">) => `USDC top-up ${t.id} (${t.network})`;

/**
 * Credits a pending top-up, in the caller's transaction: the row moves from pending to credited in one conditional
 * update, and only the caller that moved it writes the ledger entry. Returns the credited row, or null when another
 * caller (or an earlier call) already did.
 */
async function creditPending(tx: Db, id: string, now: Date): Promise<Topup | null> {
  const [row] = await tx
    .update(balanceTopups)
    .set({ status: "credited", creditedAt: now, holdUntil: null })
    .where(and(eq(balanceTopups.id, id), eq(balanceTopups.status, "pending")))
    .returning();
  if (!row) return null;
  const entry = await credit(tx, { merchantId: row.merchantId, amountCents: row.amountCents, note: noteOf(row) });
  const [done] = await tx.update(balanceTopups).set({ ledgerEntryId: entry.id }).where(eq(balanceTopups.id, id)).returning();
  return done!;
}

/**
 * Records a payment's transaction as a top-up, once: a second call with the same network and transaction (a retry,
 * a replayed request) finds the first row and changes nothing. `settled`: the transaction landed, credit now;
 * otherwise it was sent but not confirmed, and the row waits for `reconcilePendingTopups`.
 * Returns the row and whether this call created it.
 */
export async function recordTopup(
  db: Db,
  payment: TopupPayment,
  outcome: { settled: true } | { settled: false; holdMs: number },
  now = new Date(),
): Promise<{ topup: Topup; created: boolean }> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(balanceTopups)
      .values({
        id: payment.id ?? newId("top"),
        merchantId: payment.merchantId,
        amountCents: payment.amountCents,
        amountUsdc: centsToUsdc(payment.amountCents),
        status: "pending",
        network: payment.network,
        transaction: payment.transaction,
        payer: payment.payer ?? null,
        holdUntil: outcome.settled ? null : new Date(now.getTime() + outcome.holdMs),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      const [existing] = await tx
        .select()
        .from(balanceTopups)
        .where(
          or(
            and(eq(balanceTopups.network, payment.network), eq(balanceTopups.transaction, payment.transaction)),
            payment.id ? eq(balanceTopups.id, payment.id) : undefined,
          ),
        );
      // A pending row whose transaction is now known to have landed is credited here, once.
      const credited = outcome.settled && existing?.status === "pending" ? await creditPending(tx as unknown as Db, existing.id, now) : null;
      return { topup: credited ?? existing!, created: false };
    }
    if (!outcome.settled) return { topup: inserted, created: true };
    return { topup: (await creditPending(tx as unknown as Db, inserted.id, now))!, created: true };
  });
}

/** The top-up that a settlement pays: the same time-ordered id under the top-up's prefix. */
export const topupIdOf = (settlementId: string) => `top_${settlementId.slice(settlementId.indexOf("_") + 1)}`;

/**
 * What a top-up payment does once the chain has it, run in the transaction that records its settlement as settled:
 * the top-up (pending if the payment had to wait, else new) is credited once, under the transaction that landed.
 * A payment that cannot land marks its pending top-up failed.
 */
export const topupPaymentEffect: SettlementEffect = {
  async landed(tx, s) {
    const id = topupIdOf(s.id);
    await tx
      .update(balanceTopups)
      .set({ transaction: s.transaction ?? id, payer: s.payer })
      .where(and(eq(balanceTopups.id, id), eq(balanceTopups.status, "pending")));
    await recordTopup(
      tx,
      {
        id,
        merchantId: s.reference,
        amountCents: BigInt(s.details?.amountCents ?? "0"),
        network: s.network,
        transaction: s.transaction ?? id,
        payer: s.payer ?? undefined,
      },
      { settled: true },
    );
  },
  async failed(tx, s) {
    await tx
      .update(balanceTopups)
      .set({ status: "failed", holdUntil: null })
      .where(and(eq(balanceTopups.id, topupIdOf(s.id)), eq(balanceTopups.status, "pending")));
  },
};

/** The merchant's latest top-ups, newest first. */
export async function listTopups(db: Db, merchantId: string, limit = 10): Promise<Topup[]> {
  return db
    .select()
    .from(balanceTopups)
    .where(eq(balanceTopups.merchantId, merchantId))
    .orderBy(desc(balanceTopups.createdAt), desc(balanceTopups.id))
    .limit(limit);
}

export async function getTopup(db: Db, id: string): Promise<Topup | undefined> {
  const [row] = await db.select().from(balanceTopups).where(eq(balanceTopups.id, id));
  return row;
}

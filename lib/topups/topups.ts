import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { balanceTopups } from "@/lib/db/schema";
import { newId } from "@/lib/invoices/ids";
import { credit } from "@/lib/merchants";
import { centsToUsdc } from "./amount";

export type Topup = typeof balanceTopups.$inferSelect;

export type TopupPayment = {
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
        id: newId("top"),
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
      .onConflictDoNothing({ target: [balanceTopups.network, balanceTopups.transaction] })
      .returning();
    if (!inserted) {
      const [existing] = await tx
        .select()
        .from(balanceTopups)
        .where(and(eq(balanceTopups.network, payment.network), eq(balanceTopups.transaction, payment.transaction)));
      // A pending row whose transaction is now known to have landed is credited here, once.
      const credited = outcome.settled && existing?.status === "pending" ? await creditPending(tx as unknown as Db, existing.id, now) : null;
      return { topup: credited ?? existing!, created: false };
    }
    if (!outcome.settled) return { topup: inserted, created: true };
    return { topup: (await creditPending(tx as unknown as Db, inserted.id, now))!, created: true };
  });
}

/**
 * Decides the pending top-ups from what the chain says of their transactions: landed ones are credited (once),
 * failed ones, or ones whose authorization can no longer land (`holdUntil` passed), are marked failed.
 */
export async function reconcilePendingTopups(
  db: Db,
  check: (network: string, tx: string) => Promise<"success" | "failed" | "unknown">,
  now = new Date(),
): Promise<{ credited: number; failed: number }> {
  const pending = await db.select().from(balanceTopups).where(eq(balanceTopups.status, "pending"));
  let credited = 0;
  let failed = 0;
  for (const t of pending) {
    const outcome = await check(t.network, t.transaction);
    if (outcome === "success") {
      if (await db.transaction((tx) => creditPending(tx as unknown as Db, t.id, now))) credited++;
    } else if (outcome === "failed" || (t.holdUntil && t.holdUntil < now)) {
      const moved = await db
        .update(balanceTopups)
        .set({ status: "failed", holdUntil: null })
        .where(and(eq(balanceTopups.id, t.id), eq(balanceTopups.status, "pending")))
        .returning({ id: balanceTopups.id });
      failed += moved.length;
    }
  }
  return { credited, failed };
}

/** The merchant's latest top-ups, newest first. */
export async function listTopups(db: Db, merchantId: string, limit = 10): Promise<Topup[]> {
  return db.select().from(balanceTopups).where(eq(balanceTopups.merchantId, merchantId)).orderBy(desc(balanceTopups.createdAt), desc(balanceTopups.id)).limit(limit);
}

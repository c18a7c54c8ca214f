import { and, eq, gt, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { ulid } from "ulid";
import type { Db } from "@/lib/platform/db";
import { databaseJustStarted, goneLongEnough, heldBy, RESTART_GRACE_MS, type ClaimScope } from "@/lib/platform/db/claim";
import { claimHolder } from "@/lib/platform/db/presence";
import { settlements } from "@/lib/platform/db/schema";
import type { PaymentIdentity } from "./identity";
import type { PayerFunds } from "./payer-funds";
import { runAfterCommit } from "@/lib/platform/events";
import { log } from "@/lib/platform/log";
import { errorText, redactUrls } from "@/lib/platform/errors";

export type Settlement = typeof settlements.$inferSelect;
export type SettlementPurpose = "invoice" | "fee" | "topup";

/** A server settling a payment holds it this long, and extends the hold while it works. */
export const LEASE_MS = 60_000;

/**
 * How a payment failed: `refused` when it was refused as it was offered (nothing was sent for it, and its payer was
 * answered so at once: it did not verify, or the shop could not send it), else it had been accepted (sent to the
 * chain, its outcome left to the chain) and the chain says it can never land.
 */
export type Failure = { now: Date; refused: boolean };

/**
 * What a payment does once it has landed, and what is undone when it cannot land, each run inside the transaction
 * that moves the settlement to `settled` or `failed`, so that it happens exactly once. `failed` may return work to run
 * once that transaction has committed (a worker to kick).
 */
export type SettlementEffect = {
  landed(tx: Db, s: Settlement): Promise<void>;
  failed?(tx: Db, s: Settlement, how: Failure): Promise<(() => void)[] | void>;
};
export type SettlementEffects = Partial<Record<SettlementPurpose, SettlementEffect>>;

export type Refusal =
  | { refused: "used" | "in_progress" }
  | { refused: "claim"; reason: string }
  /** The payer's balance does not cover the payment beside what it has committed already (see `committedBy`). */
  | { refused: "balance"; balance: bigint; committed: bigint };

class ClaimRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

class BeyondBalance extends Error {
  constructor(
    readonly balance: bigint,
    readonly committed: bigint,
  ) {
    super("the payer's balance does not cover the payment");
  }
}

/**
 * Records a payment before it is settled, in one transaction with `claim` (which takes what the payment is for, an
 * invoice say, under the new settlement's id and answers a reason when it cannot). A payment already settled, or being
 * settled now by this or another server, is refused; a payment that failed before may be offered again. With the
 * payer's `funds` (read from the chain just before), a payment they do not cover beside what the payer has committed
 * already is refused too: the payments of one payer are recorded one at a time (a transaction lock per network and
 * payer, across servers on PostgreSQL), so that of several sent at once from a balance that covers one, one is sent.
 */
export async function beginSettlement(
  db: Db,
  p: PaymentIdentity & {
    purpose: SettlementPurpose;
    reference: string;
    amountUsdc: bigint;
    details?: Record<string, string>;
    transaction?: string;
    /** Where the payment must arrive (the requirement's payTo). */
    payTo?: string;
    /** EVM: a block seen before the payment is sent (its events are looked for from there). */
    sentBlock?: bigint;
    /** The payer's funds, read from the chain: the payment is refused unless they cover it (see above). */
    funds?: PayerFunds;
  },
  claim?: (tx: Db, settlementId: string) => Promise<string | null>,
  now = new Date(),
): Promise<{ settlement: Settlement } | Refusal> {
  const id = `pay_${ulid()}`;
  const { funds } = p;
  // Without a claim or funds to weigh the record is one statement: no transaction around it (two round trips fewer).
  const atomically = <T>(work: (tx: Db) => Promise<T>): Promise<T> => (claim || funds ? db.transaction((tx) => work(tx as unknown as Db)) : work(db));
  try {
    return await atomically(async (tx) => {
      // Taken before anything is read, and held until the record commits: the next payment of this payer waits, then
      // sees this one among the payer's open payments.
      if (funds) await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`settlement-payer:${p.network}:${funds.payer.toLowerCase()}`}, 402))`);
      const values = {
        id,
        network: p.network,
        identity: p.identity,
        purpose: p.purpose,
        reference: p.reference,
        details: p.details ?? null,
        payer: p.payer,
        amountUsdc: p.amountUsdc,
        status: "settling" as const,
        transaction: p.transaction ?? null,
        payTo: p.payTo ?? null,
        sentBlock: p.sentBlock ?? null,
        nextCheckAt: null,
        checks: 0,
        validUntil: p.validUntil,
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        leaseHolder: claimHolder(),
        lastError: null,
        createdAt: now,
        updatedAt: now,
        settledAt: null,
      };
      // A failed payment is taken over under a new id, so that whatever pointed at the old attempt no longer matches.
      const [row] = await tx
        .insert(settlements)
        .values(values)
        .onConflictDoUpdate({ target: [settlements.network, settlements.identity], set: values, setWhere: eq(settlements.status, "failed") })
        .returning();
      if (!row) {
        const [existing] = await tx
          .select({ status: settlements.status })
          .from(settlements)
          .where(and(eq(settlements.network, p.network), eq(settlements.identity, p.identity)));
        return { refused: existing?.status === "settled" ? ("used" as const) : ("in_progress" as const) };
      }
      if (funds) {
        // Refused by throwing, so that the record (or a failed attempt it took over) is rolled back.
        const committed = await committedBy(tx, p.network, funds.payer, id);
        if (funds.balance < committed + p.amountUsdc) throw new BeyondBalance(funds.balance, committed);
      }
      const refusal = claim ? await claim(tx, id) : null;
      if (refusal) throw new ClaimRefused(refusal);
      return { settlement: row };
    });
  } catch (err) {
    if (err instanceof ClaimRefused) return { refused: "claim", reason: err.reason };
    if (err instanceof BeyondBalance) return { refused: "balance", balance: err.balance, committed: err.committed };
    throw err;
  }
}

/**
 * What a payer has committed on a network beside the payment `id`, in USDC atomic units: its payments still open
 * (being settled, or sent and pending), whose money may still be in the balance read. A settled one is at the network's
 * depth, gone from any balance read since (counting it too refused a payer's second purchase made right after the
 * first). An open payment whose transfer has already landed is counted though the balance no longer holds it: for
 * the second or two until it is recorded, the error is on the side of refusing.
 */
async function committedBy(tx: Db, network: string, payer: string, id: string): Promise<bigint> {
  const [row] = await tx
    .select({ sum: sql<string>`coalesce(sum(${settlements.amountUsdc}), 0)::text` })
    .from(settlements)
    .where(
      and(
        eq(settlements.network, network),
        sql`lower(${settlements.payer}) = ${payer.toLowerCase()}`,
        inArray(settlements.status, ["settling", "pending"]),
        ne(settlements.id, id),
      ),
    );
  return BigInt(row?.sum ?? "0");
}

/** Extends the hold of a settlement this server is still working on. */
export async function extendLease(db: Db, id: string, now = new Date()): Promise<void> {
  await db
    .update(settlements)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), leaseHolder: claimHolder() })
    .where(and(eq(settlements.id, id), eq(settlements.status, "settling")));
}

/**
 * Hands back the leases of `scope` (lib/platform/db/claim.ts ClaimScope) on settlements still being settled, and answers their
 * ids: the reconciler (this server's next start, or another server) asks the chain about them at once rather than
 * when the lease lapses (LEASE_MS). Safe while their server still works on one: the chain decides, and only one
 * caller records the outcome (finishSettlement). `dead` frees those whose holder's presence is gone, once seen gone
 * for `graceMs` and not within `restartGraceMs` of the database server's start.
 */
export async function releaseLeases(db: Db, scope: ClaimScope, opts: { now?: Date; graceMs?: number; restartGraceMs?: number } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const held = and(eq(settlements.status, "settling"), gt(settlements.leaseUntil, now), heldBy(settlements.leaseHolder, scope));
  let ids: string[] | undefined;
  if (scope === "dead") {
    if (await databaseJustStarted(db, opts.restartGraceMs ?? RESTART_GRACE_MS)) return [];
    const found = await db.select({ id: settlements.id, holder: settlements.leaseHolder }).from(settlements).where(held);
    ids = goneLongEnough(db, "settlements", found, now, opts.graceMs ?? 0);
    if (ids.length === 0) return [];
  }
  const freed = await db
    .update(settlements)
    .set({ leaseUntil: now, leaseHolder: null, nextCheckAt: null })
    .where(ids ? and(held, inArray(settlements.id, ids)) : held)
    .returning({ id: settlements.id });
  return freed.map((s) => s.id);
}

export type Outcome =
  | { status: "settled"; transaction: string; payer?: string }
  /** `refused`: the payment was refused as it was offered (see Failure). */
  | { status: "failed"; error: string; transaction?: string; refused?: boolean }
  | { status: "pending"; error: string; transaction?: string };

/**
 * Moves an open settlement to its outcome, once: only the caller whose conditional update moved it runs the effect,
 * in the same transaction. `pending` keeps it open for the reconciler (no effect). Returns the row when this call
 * decided it, or null when it was already decided (by another server or the reconciler).
 */
export async function finishSettlement(db: Db, id: string, outcome: Outcome, effects: SettlementEffects, now = new Date()): Promise<Settlement | null> {
  const after: (() => void)[] = [];
  const decided = await db.transaction(async (tx) => {
    const set = {
      status: outcome.status,
      leaseUntil: null,
      updatedAt: now,
      ...(outcome.transaction ? { transaction: outcome.transaction } : {}),
      ...(outcome.status === "settled"
        ? { settledAt: now, lastError: null, ...(outcome.payer ? { payer: outcome.payer } : {}) }
        : { lastError: redactUrls(outcome.error).slice(0, 500) }),
    };
    const [row] = await tx
      .update(settlements)
      .set(set)
      .where(and(eq(settlements.id, id), inArray(settlements.status, ["settling", "pending"])))
      .returning();
    if (!row) return null;
    const effect = effects[row.purpose as SettlementPurpose];
    if (outcome.status === "settled") await effect?.landed(tx as unknown as Db, row);
    if (outcome.status === "failed") after.push(...((await effect?.failed?.(tx as unknown as Db, row, { now, refused: outcome.refused ?? false })) ?? []));
    return row;
  });
  runAfterCommit(after);
  // Written once the outcome is committed, by the one caller that decided it.
  if (decided && decided.status !== "pending") logOutcome(decided);
  return decided;
}

function logOutcome(s: Settlement) {
  const about = {
    settlement_id: s.id,
    purpose: s.purpose,
    ...(s.purpose === "invoice" ? { invoice_id: s.reference } : s.purpose === "topup" ? { merchant_id: s.reference } : { route: s.reference }),
    network: s.network,
    transaction: s.transaction ?? undefined,
    amount_usdc_atomic: s.amountUsdc.toString(),
  };
  if (s.status === "settled") log.info(about, "payment settled");
  else log.warn({ ...about, reason: s.lastError ?? undefined }, "payment failed");
}

/**
 * Settlements whose outcome is open, that no server is working on (pending ones, and settling ones whose hold
 * lapsed) and that are due to be asked of the chain again: the longest waiting first, so that rows the chain cannot
 * decide yet (they back off, see `RECHECK_MS`) never keep the others from being decided.
 */
export async function openSettlements(db: Db, now = new Date(), limit = 100): Promise<Settlement[]> {
  return db
    .select()
    .from(settlements)
    .where(
      and(
        or(eq(settlements.status, "pending"), and(eq(settlements.status, "settling"), lt(settlements.leaseUntil, now))),
        or(isNull(settlements.nextCheckAt), lte(settlements.nextCheckAt, now)),
      ),
    )
    .orderBy(sql`coalesce(${settlements.nextCheckAt}, ${settlements.createdAt})`)
    .limit(limit);
}

/** An open settlement the chain did not decide is asked again after this, doubled each time, up to `RECHECK_MAX_MS`. */
export const RECHECK_MS = 2_000;
export const RECHECK_MAX_MS = 5 * 60_000;
/**
 * An open settlement still undecided this long after its authorization expired is shown to the operator (a health
 * warning): by then the chain should have said, so its node, its logs or its record need a look.
 */
export const UNDECIDED_WARNING_MS = 15 * 60_000;

/** When an undecided settlement is asked again after its `checks`-th undecided look. */
export function nextCheck(now: Date, checks: number): Date {
  return new Date(now.getTime() + Math.min(RECHECK_MAX_MS, RECHECK_MS * 2 ** Math.min(checks, 20)));
}

/** Open settlements undecided long after they could have landed: what the operator is shown. */
export async function undecidedSettlements(db: Db, now = new Date()): Promise<{ count: number; oldest?: Settlement }> {
  const stale = and(inArray(settlements.status, ["settling", "pending"]), lt(settlements.validUntil, new Date(now.getTime() - UNDECIDED_WARNING_MS)));
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(settlements)
    .where(stale);
  const [oldest] = await db.select().from(settlements).where(stale).orderBy(settlements.validUntil).limit(1);
  return { count: row?.count ?? 0, oldest };
}

/** What the chain says of a payment: it landed (in this transaction), it never can, or not known yet. */
export type ChainVerdict =
  { landed: true; transaction: string; payer?: string } | { landed: false; final: true; why: string } | { landed: false; final: false };

/**
 * Decides every open settlement from what the chain says: landed ones are applied (once), ones that can no longer
 * land are failed (their effect undone), the rest wait. A settling one is only taken once its server's hold lapsed
 * (that server died, or is stuck). One whose outcome cannot be recorded (its effect throws: two top-ups a facilitator
 * settled in one transaction, which the top-ups' unique (network, transaction) refuses the second of) stays open with
 * that error and waits like an undecided one, so that it never holds up the others. Returns what it did.
 */
export async function reconcileSettlements(
  db: Db,
  verdict: (s: Settlement) => Promise<ChainVerdict>,
  effects: SettlementEffects,
  now = new Date(),
): Promise<{ settled: number; failed: number; open: number }> {
  const open = await openSettlements(db, now);
  let settled = 0;
  let failed = 0;
  for (const s of open) {
    try {
      const decided = await reconcileOne(db, s, verdict, effects, now);
      if (decided === "settled") settled++;
      if (decided === "failed") failed++;
    } catch (err) {
      // Nothing of it was recorded (its transaction rolled back): the error is kept on the row for the operator, in the
      // database's own words when a query failed (its error carries them as its cause), not the query and its values.
      const error = errorText(err instanceof Error && err.cause instanceof Error ? err.cause : err).slice(0, 500);
      log.error({ settlement_id: s.id, purpose: s.purpose, network: s.network, reason: error }, "a settlement's outcome could not be recorded");
      await askAgainLater(db, s, now, error);
    }
  }
  return { settled, failed, open: open.length - settled - failed };
}

/** Decides one open settlement from what the chain says; answers what this call did to it. */
async function reconcileOne(
  db: Db,
  s: Settlement,
  verdict: (s: Settlement) => Promise<ChainVerdict>,
  effects: SettlementEffects,
  now: Date,
): Promise<"settled" | "failed" | "open"> {
  let v: ChainVerdict;
  try {
    v = await verdict(s);
  } catch {
    v = { landed: false, final: false }; // The chain did not answer: asked again later.
  }
  if (v.landed) {
    return (await finishSettlement(db, s.id, { status: "settled", transaction: v.transaction, payer: v.payer }, effects, now)) ? "settled" : "open";
  }
  if (v.final) {
    return (await finishSettlement(db, s.id, { status: "failed", error: v.why, transaction: s.transaction ?? undefined }, effects, now)) ? "failed" : "open";
  }
  await askAgainLater(db, s, now);
  return "open";
}

/**
 * An open settlement not decided this round is asked again later, later each time, so that the next round takes the
 * others first; `error` is what kept it open, when recording its outcome failed.
 */
async function askAgainLater(db: Db, s: Settlement, now: Date, error?: string): Promise<void> {
  await db
    .update(settlements)
    .set({ checks: s.checks + 1, nextCheckAt: nextCheck(now, s.checks), ...(error ? { lastError: error } : {}) })
    .where(and(eq(settlements.id, s.id), inArray(settlements.status, ["settling", "pending"])));
}

/** A failed settlement is kept this long (for the logs' and the operator's questions), then deleted. */
export const FAILED_RETENTION_MS = 24 * 60 * 60_000;
/** A settled one is kept this long after its authorization expired (when it can no longer be offered again at all). */
export const SETTLED_RETENTION_MS = 30 * 24 * 60 * 60_000;

/**
 * Deletes settlements that can no longer matter: failed ones after `FAILED_RETENTION_MS` (a payment offered again
 * after that is verified anew), settled ones `SETTLED_RETENTION_MS` after their authorization expired (the chain then
 * refuses it anyway; the invoice or top-up keeps its transaction). Open ones are never deleted. Returns how many.
 */
export async function deleteStaleSettlements(db: Db, now = new Date()): Promise<number> {
  const gone = await db
    .delete(settlements)
    .where(
      or(
        and(eq(settlements.status, "failed"), lt(settlements.updatedAt, new Date(now.getTime() - FAILED_RETENTION_MS))),
        and(eq(settlements.status, "settled"), lt(settlements.validUntil, new Date(now.getTime() - SETTLED_RETENTION_MS))),
      ),
    )
    .returning({ id: settlements.id });
  return gone.length;
}

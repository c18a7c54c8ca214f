import { and, eq, gt, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { goneLongEnough, heldBy, notHeld, type ClaimScope } from "@/lib/platform/db/claim";
import { claimHolder } from "@/lib/platform/db/presence";
import { addressRefunds } from "@/lib/platform/db/schema";
import { errorText } from "@/lib/platform/errors";
import { logFor } from "@/lib/platform/log";
import { isShuttingDown } from "@/lib/platform/runtime/shutdown";
import { MAX_REFUND_REPLACEMENTS, type Payout, type PayoutStatus, type SignedPayout } from "./refund";

/** A refund being paid holds its row this long (a crash leaves it for the next round a minute later). */
const LOCK_MS = 60_000;
/** A transfer sent and not yet at depth, or one that could not be made, is looked at again after this. */
const RETRY_MS = 60_000;
const POLL_MS = 250;

type Row = typeof addressRefunds.$inferSelect;

/**
 * Pays what shoppers' payment addresses received beyond their invoices (`address_refunds`, decided by the address
 * watcher's rounds), each exactly once, to the refund address the payer gave, in the coin that arrived, from the
 * shop's refund wallet, as failed orders are refunded (./refund.ts):
 * 1. the row is held by one server (a conditional update), the transfer signed and stored on it before it is sent
 *    (conditional on none being stored: of two servers that signed, one stores, the other's is never sent);
 * 2. it is sent and watched; once the chain shows it at the network's depth the refund is `paid` with it;
 * 3. a later round (a crash, a node that did not answer) finds the stored transfer, asks the chain and sends the same
 *    bytes again; only a transfer the chain proves can never land is dropped, and a new one signed. An EVM transfer
 *    the chain's fee keeps waiting is replaced by the same one at a higher fee (one nonce: at most one lands), stored
 *    beside the first before it is sent, as order refunds are.
 * A refund without an address waits for the operator (readiness warns of it). Returns the ids paid this time; throws
 * the first failure at the end, the others still tried.
 */
export async function payAddressRefunds(db: Db, payout: Payout, opts: { now?: Date; limit?: number } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const due = await db
    .select()
    .from(addressRefunds)
    .where(and(eq(addressRefunds.status, "due"), isNotNull(addressRefunds.toAddress), notHeld(addressRefunds.lockedUntil, now)))
    .orderBy(addressRefunds.createdAt)
    .limit(opts.limit ?? 20);
  const paid: string[] = [];
  const errors: unknown[] = [];
  for (const r of due) {
    if (isShuttingDown()) break;
    try {
      if (await payOne(db, payout, r, now)) paid.push(r.id);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw new Error(`${errors.length} refund(s) of payments by address failed; they are retried in a minute`, { cause: errors[0] });
  return paid;
}

async function payOne(db: Db, payout: Payout, r: Row, now: Date): Promise<boolean> {
  const due = and(eq(addressRefunds.id, r.id), eq(addressRefunds.status, "due"));
  const [held] = await db
    .update(addressRefunds)
    .set({ lockedUntil: new Date(now.getTime() + LOCK_MS), lockedBy: claimHolder() })
    .where(and(due, notHeld(addressRefunds.lockedUntil, now)))
    .returning();
  if (!held?.toAddress) return false;
  const log = logFor({ invoice_id: held.invoiceId });
  const later = (lastError: string) =>
    db
      .update(addressRefunds)
      .set({ lockedUntil: new Date(Date.now() + RETRY_MS), lastError: lastError.slice(0, 500) })
      .where(due);

  let stored: SignedPayout | null = held.tx && held.raw ? { transaction: held.tx, raw: held.raw, expiry: held.expiry ?? "" } : null;
  if (!stored) {
    const store = async (p: SignedPayout) =>
      (
        await db
          .update(addressRefunds)
          .set({ tx: p.transaction, raw: p.raw, expiry: p.expiry })
          .where(and(due, isNull(addressRefunds.tx)))
          .returning({ id: addressRefunds.id })
      ).length === 1;
    try {
      stored = await payout.sign(
        { network: held.network, payer: held.toAddress, ...(held.asset === "native" ? { asset: "native" as const } : {}) },
        held.amount,
        store,
      );
    } catch (err) {
      await later(`refund: ${errorText(err)}`);
      throw err;
    }
    if (!stored) return false;
  }
  let transfer = stored;
  // Earlier versions at lower fees (one nonce: at most one of them all lands).
  const earlier = held.tx ? [...(held.superseded ?? [])] : [];
  const mine = () => and(due, eq(addressRefunds.tx, transfer.transaction));
  let landedAs = transfer.transaction;
  const ask = async (): Promise<PayoutStatus> => {
    const versions = [transfer, ...earlier.map((transaction) => ({ transaction, raw: "", expiry: transfer.expiry }))];
    const verdict = await payout.status(held.network, versions).catch(() => ({ status: "pending" as const, transaction: undefined }));
    if (verdict.transaction) landedAs = verdict.transaction;
    return verdict.status;
  };

  let status = held.tx ? await ask() : "pending";
  if (status === "pending") {
    // Sending it again is harmless; a refusal (funds, fees) leaves it stored, and the chain says what became of it.
    await payout
      .send(held.network, transfer)
      .catch((err: unknown) => log.warn({ err: errorText(err), refund: held.id }, "a refund transfer was not taken yet"));
  }
  const deadline = Date.now() + (payout.confirmTimeoutMs ?? 5 * 60_000);
  let sentAt = Date.now();
  while (status === "pending" && Date.now() < deadline && !isShuttingDown()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    status = await ask();
    // An EVM transfer the chain's fee keeps out of the blocks: the same one at a higher fee, stored before it is sent.
    if (status !== "pending" || !payout.replace || earlier.length >= MAX_REFUND_REPLACEMENTS) continue;
    if (Date.now() - sentAt < (payout.stuckAfterMs ?? 12_000)) continue;
    sentAt = Date.now();
    const dearer = await payout.replace(held.network, transfer).catch(() => null);
    if (!dearer) continue;
    const moved = await db
      .update(addressRefunds)
      .set({
        tx: dearer.transaction,
        raw: dearer.raw,
        superseded: sql`array_append(coalesce(${addressRefunds.superseded}, '{}'::text[]), ${transfer.transaction})`,
        lockedUntil: new Date(Date.now() + LOCK_MS),
      })
      .where(mine())
      .returning({ id: addressRefunds.id });
    if (moved.length === 0) return false;
    log.warn(
      { refund: held.id, transaction: transfer.transaction, replacement: dearer.transaction },
      "a refund transfer waits for a lower fee: sent again at a higher one",
    );
    earlier.push(transfer.transaction);
    transfer = dearer;
    await payout.send(held.network, transfer).catch(() => undefined);
  }
  if (status === "landed") {
    // Not conditional on the hold: the money has moved.
    const done = await db
      .update(addressRefunds)
      .set({ status: "paid", tx: landedAs, raw: null, paidAt: new Date(), lockedUntil: null, lastError: null })
      .where(mine())
      .returning({ id: addressRefunds.id });
    if (done.length === 0) return false;
    log.info(
      { refund: held.id, network: held.network, transaction: landedAs, amount: String(held.amount), currency: held.currency },
      "refund of a payment by address paid",
    );
    return true;
  }
  if (status === "failed" || status === "dead") {
    log.warn({ refund: held.id, network: held.network, transaction: landedAs, status }, "a refund transfer cannot land: a new one is made");
    await db
      .update(addressRefunds)
      .set({
        tx: null,
        raw: null,
        expiry: null,
        superseded: null,
        lockedUntil: null,
        lastError: `refund: the transfer ${landedAs} ${status === "failed" ? "failed on chain" : "can no longer land"}`,
      })
      .where(mine());
    return false;
  }
  await later(`refund: ${transfer.transaction} was sent and is not confirmed yet`);
  return false;
}

/**
 * Frees the refunds of payments by address that `scope` holds (as the other claims are handed back,
 * lib/server/hand-back.ts): the next start or another server then follows a stored transfer at once. Safe: a stored
 * transfer is only sent again (the same bytes) or found landed. Returns the refunds freed.
 */
export async function releaseAddressRefunds(db: Db, scope: ClaimScope, opts: { now?: Date; graceMs?: number } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const held = and(eq(addressRefunds.status, "due"), gt(addressRefunds.lockedUntil, now), heldBy(addressRefunds.lockedBy, scope));
  let ids: string[] | undefined;
  if (scope === "dead") {
    const found = await db.select({ id: addressRefunds.id, holder: addressRefunds.lockedBy }).from(addressRefunds).where(held);
    ids = goneLongEnough(db, "address refunds", found, now, opts.graceMs ?? 0);
    if (ids.length === 0) return [];
  }
  const freed = await db
    .update(addressRefunds)
    .set({ lockedUntil: null, lockedBy: null })
    .where(ids ? and(held, inArray(addressRefunds.id, ids)) : held)
    .returning({ id: addressRefunds.id });
  return freed.map((r) => r.id);
}

/** A refund still failing this long after it was decided is the operator's to look at. */
const FAILING_WARN_MS = 60 * 60_000;

/** What the operator must look at: refunds of payments by address that have no address to go to, or keep failing. */
export async function addressRefundWarnings(db: Db, now = new Date()): Promise<string[]> {
  const failing = await db
    .select({ id: addressRefunds.id, invoiceId: addressRefunds.invoiceId, lastError: addressRefunds.lastError })
    .from(addressRefunds)
    .where(
      and(
        eq(addressRefunds.status, "due"),
        isNotNull(addressRefunds.toAddress),
        isNotNull(addressRefunds.lastError),
        lt(addressRefunds.createdAt, new Date(now.getTime() - FAILING_WARN_MS)),
      ),
    )
    .orderBy(addressRefunds.createdAt)
    .limit(100);
  const stuck = failing[0]
    ? [
        `${failing.length === 100 ? "100 or more" : failing.length} refund(s) of payments by address still fail an hour after they were decided; the oldest: ${failing[0].id} (invoice ${failing[0].invoiceId}): ${failing[0].lastError}`,
      ]
    : [];
  const waiting = await db
    .select({
      id: addressRefunds.id,
      invoiceId: addressRefunds.invoiceId,
      amount: addressRefunds.amount,
      currency: addressRefunds.currency,
      decimals: addressRefunds.decimals,
    })
    .from(addressRefunds)
    .where(and(eq(addressRefunds.status, "due"), isNull(addressRefunds.toAddress)))
    .orderBy(addressRefunds.createdAt)
    .limit(100);
  const first = waiting[0];
  return first
    ? [
        ...stuck,
        `${waiting.length === 100 ? "100 or more" : waiting.length} refund(s) of payments by address have no refund address and wait for the operator; the oldest: ${first.id} (invoice ${first.invoiceId}, ${first.amount} of ${first.currency}'s smallest unit)`,
      ]
    : stuck;
}

import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders, settlements } from "@/lib/platform/db/schema";
import { emit, runAfterCommit } from "@/lib/platform/events";
import { releaseCodes } from "@/lib/catalog";
import { releaseHolds, spendHolds } from "@/lib/gift-cards";
import { effectiveStatus, PAYMENT_FAILED, paymentErrorText, UNPAID_ORDER_ERRORS } from "./effective-status";

/**
 * A payment being settled holds its invoice for this long, and beyond it for as long as its settlement is open (being
 * settled, or sent and waiting for the chain): an invoice is never released under a payment that may still land.
 */
const CLAIM_MS = 2 * 60_000;

/** The invoice is held by nobody: no claim, or one that lapsed and whose settlement (if any) is decided. */
const unclaimed = (now: Date) =>
  or(
    isNull(invoices.paymentClaim),
    and(
      or(isNull(invoices.paymentClaimUntil), lt(invoices.paymentClaimUntil, now)),
      sql`NOT EXISTS (SELECT 1 FROM ${settlements} WHERE ${settlements.id} = ${invoices.paymentClaim} AND ${settlements.status} IN ('settling', 'pending'))`,
    ),
  );

export type InvoiceRow = typeof invoices.$inferSelect;

export async function getInvoice(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

/** Why an invoice cannot take a payment now, or null when it can. */
export function payability(inv: InvoiceRow | undefined, now = new Date()): "not_found" | "expired" | "not_payable" | null {
  if (!inv) return "not_found";
  const status = effectiveStatus(inv, now);
  // A payment_error invoice is past its expiry too (its payment failed and its time is up): too late to pay.
  if (status === "expired" || status === "payment_error") return "expired";
  if (status !== "unpaid") return "not_payable";
  return null;
}

/**
 * Takes the invoice for one payment's settlement, in one conditional update: an unpaid, unexpired invoice that no
 * other payment holds. `claim` is the settlement's id (see lib/payments/exchange.ts). Nothing else changes, so a
 * payment refused as it is settled leaves no trace (releaseClaim); one accepted and then failed does (paymentFailed).
 * Returns the claim, or why not.
 */
export async function claimForPayment(
  db: Db,
  id: string,
  opts: { claim?: string; now?: Date } = {},
): Promise<{ claim: string } | { refused: "not_found" | "expired" | "not_payable" | "busy" }> {
  const now = opts.now ?? new Date();
  const claim = opts.claim ?? randomUUID();
  const taken = await db
    .update(invoices)
    .set({ paymentClaim: claim, paymentClaimUntil: new Date(now.getTime() + CLAIM_MS) })
    .where(and(eq(invoices.id, id), eq(invoices.status, "unpaid"), gt(invoices.expiresAt, now), unclaimed(now)))
    .returning({ id: invoices.id });
  if (taken.length > 0) return { claim };
  return { refused: payability(await getInvoice(db, id), now) ?? "busy" };
}

/** Gives the invoice back after a payment that was refused as it was offered (nothing was sent for it). */
export async function releaseClaim(db: Db, id: string, claim: string): Promise<void> {
  await db
    .update(invoices)
    .set({ paymentClaim: null, paymentClaimUntil: null })
    .where(and(eq(invoices.id, id), eq(invoices.paymentClaim, claim)));
}

/**
 * Records the payment: unpaid -> paid under this claim (a USDC payment's settlement), or with none (a merchant's balance
 * debit, made in the caller's transaction), and makes every order of the invoice due for fulfilment, in one
 * transaction. Every way an invoice gets paid ends here. An earlier payment that failed is forgotten (its error code on
 * the invoice, its reason on the orders). Returns false when the claim was no longer held (then nothing changed).
 */
export async function markPaid(
  db: Db,
  id: string,
  claim: string | null,
  settlement: { network: string; transaction: string | null; payer: string | undefined },
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const paid = await tx
      .update(invoices)
      .set({
        status: "paid",
        paidAt: now,
        updatedAt: now,
        errorCode: null,
        paymentNetwork: settlement.network,
        paymentTx: settlement.transaction,
        paymentPayer: settlement.payer ?? null,
        paymentClaim: null,
        paymentClaimUntil: null,
      })
      .where(and(eq(invoices.id, id), eq(invoices.status, "unpaid"), claim === null ? isNull(invoices.paymentClaim) : eq(invoices.paymentClaim, claim)))
      .returning({ id: invoices.id });
    if (paid.length === 0) return false;
    await tx.update(orders).set({ runAt: now, lastError: null, updatedAt: now }).where(eq(orders.invoiceId, id));
    // Value of gift cards set aside for it is spent now.
    await spendHolds(tx as unknown as Db, id);
    return true;
  });
}

/**
 * Ends the unpaid invoices that `where` picks, which can no longer be paid, in the caller's transaction, each once (the
 * update is conditional on `unpaid`: of two servers' sweeps, or a sweep and a payment's failure, only one moves it):
 * `payment_error` when a payment accepted for it failed (its error code says so), else `expired`. Their orders end
 * `failed` with why, the stock they reserved is freed, and each final status is announced (invoice.final: a merchant's
 * webhook). Returns the ended invoices and the work to run after the commit.
 */
async function endUnpaid(tx: Db, where: SQL, now: Date, completedAt: SQL | Date): Promise<{ ended: number; after: (() => void)[] }> {
  const rows = await tx
    .update(invoices)
    .set({
      status: sql`CASE WHEN ${invoices.errorCode} = ${PAYMENT_FAILED} THEN 'payment_error'::invoice_status ELSE 'expired'::invoice_status END`,
      completedAt,
      updatedAt: now,
    })
    .where(and(eq(invoices.status, "unpaid"), where))
    .returning({ id: invoices.id, status: invoices.status });
  if (rows.length === 0) return { ended: 0, after: [] };
  const ids = (status: string) => rows.filter((r) => r.status === status).map((r) => r.id);
  const expired = ids("expired");
  const failed = ids("payment_error");
  if (expired.length > 0)
    await tx
      .update(orders)
      .set({ status: "failed", errorCode: "expired", lastError: UNPAID_ORDER_ERRORS.expired, updatedAt: now })
      .where(and(inArray(orders.invoiceId, expired), eq(orders.status, "created")));
  // The reason of the payment's failure was kept on the orders when it failed.
  if (failed.length > 0)
    await tx
      .update(orders)
      .set({
        status: "failed",
        errorCode: "payment_error",
        lastError: sql`coalesce(${orders.lastError}, ${UNPAID_ORDER_ERRORS.payment_error})`,
        updatedAt: now,
      })
      .where(and(inArray(orders.invoiceId, failed), eq(orders.status, "created")));
  await releaseCodes(
    tx,
    rows.map((r) => r.id),
  );
  await releaseHolds(
    tx,
    rows.map((r) => r.id),
  );
  const after: (() => void)[] = [];
  for (const r of rows) after.push(...(await emit(tx, "invoice.final", { invoiceId: r.id, now })));
  return { ended: rows.length, after };
}

/**
 * The expiry sweep: ends the unpaid invoices past their expiry that no payment holds (endUnpaid: `expired`, or
 * `payment_error` after an accepted payment failed), in one transaction; they became final at their expiry. Safe to
 * run on several servers at once. Returns how many ended.
 */
export async function expireInvoices(db: Db, now = new Date()): Promise<number> {
  const { ended, after } = await db.transaction((tx) =>
    endUnpaid(tx as unknown as Db, and(sql`${invoices.expiresAt} <= ${now}`, unclaimed(now))!, now, sql`${invoices.expiresAt}`),
  );
  runAfterCommit(after);
  return ended;
}

/**
 * Ends one unpaid invoice that no payment holds now, in the caller's transaction, as the expiry sweep would at its end
 * (`expired`): a payment by address that came too late for its price (lib/checkout/address-payment.ts). Returns
 * whether it ended (not when another payment holds it), and the work to run after the commit.
 */
export async function endUnpaidNow(tx: Db, id: string, now = new Date()): Promise<{ ended: boolean; after: (() => void)[] }> {
  const { ended, after } = await endUnpaid(tx, and(eq(invoices.id, id), unclaimed(now))!, now, now);
  return { ended: ended > 0, after };
}

/**
 * A payment accepted for the invoice (sent to the chain for settlement) failed for good: called in the transaction
 * that records its settlement as failed, under the claim it held. The invoice is given back, marked (PAYMENT_FAILED)
 * and the reason kept on its orders. While it can still be paid (before its expiry) it waits for another payment; once
 * it cannot (the payment held it past its expiry) it ends `payment_error` here. Returns the work to run after the
 * commit.
 */
export async function paymentFailed(tx: Db, id: string, claim: string, reason: string | null, now = new Date()): Promise<(() => void)[]> {
  const [held] = await tx
    .update(invoices)
    .set({ paymentClaim: null, paymentClaimUntil: null, errorCode: PAYMENT_FAILED, updatedAt: now })
    .where(and(eq(invoices.id, id), eq(invoices.status, "unpaid"), eq(invoices.paymentClaim, claim)))
    .returning({ expiresAt: invoices.expiresAt });
  if (!held) return [];
  await tx
    .update(orders)
    .set({ lastError: paymentErrorText(reason), updatedAt: now })
    .where(and(eq(orders.invoiceId, id), eq(orders.status, "created")));
  if (held.expiresAt > now) return [];
  return (await endUnpaid(tx, eq(invoices.id, id), now, now)).after;
}

/**
 * Refuses an unpaid invoice before payment: it ends `denied` with the reason (`status_reason`, e.g. `balance_too_low`
 * for an `auto_pay` the balance could not cover), its orders end `failed` with the reason's text, the stock they
 * reserved is freed, and, a final status reached, its webhook is written in the same transaction. Returns whether it
 * was refused (false: no longer unpaid). Inside a caller's transaction, `after` takes the work to run once that one
 * commits (the webhook worker's kick), which the caller runs (runAfterCommit).
 */
export async function denyUnpaid(db: Db, id: string, reason: { code: string; message: string }, now = new Date(), after?: (() => void)[]): Promise<boolean> {
  const own = after === undefined;
  after ??= [];
  const denied = await db.transaction(async (tx) => {
    const rows = await tx
      .update(invoices)
      .set({ status: "denied", errorCode: reason.code, expiresAt: now, completedAt: now, updatedAt: now })
      .where(and(eq(invoices.id, id), eq(invoices.status, "unpaid")))
      .returning({ id: invoices.id });
    if (rows.length === 0) return false;
    await tx
      .update(orders)
      .set({ status: "failed", errorCode: reason.code, lastError: reason.message.slice(0, 500), updatedAt: now })
      .where(and(eq(orders.invoiceId, id), eq(orders.status, "created")));
    await releaseCodes(tx as unknown as Db, [id]);
    await releaseHolds(tx as unknown as Db, [id]);
    after.push(...(await emit(tx, "invoice.final", { invoiceId: id, now })));
    return true;
  });
  if (own) runAfterCommit(after);
  return denied;
}

import { randomUUID } from "node:crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { invoices, orders, settlements } from "@/lib/db/schema";
import { emit, runAfterCommit } from "@/lib/events";
import { releaseCodes } from "@/lib/inventory";
import { effectiveStatus } from "./effective-status";

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
  if (status === "expired") return "expired";
  if (status !== "unpaid") return "not_payable";
  return null;
}

/**
 * Takes the invoice for one payment's settlement, in one conditional update: an unpaid, unexpired invoice that no
 * other payment holds. `claim` is the settlement's id (see lib/payments/exchange.ts). Nothing else changes, so a
 * payment that then fails to settle leaves no trace. Returns the claim, or why not.
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

/** Gives the invoice back after a payment that did not settle. */
export async function releaseClaim(db: Db, id: string, claim: string): Promise<void> {
  await db
    .update(invoices)
    .set({ paymentClaim: null, paymentClaimUntil: null })
    .where(and(eq(invoices.id, id), eq(invoices.paymentClaim, claim)));
}

/**
 * Records the payment: unpaid -> paid under this claim (a USDC payment's settlement), or with none (a merchant's balance
 * debit, made in the caller's transaction), and makes every order of the invoice due for fulfilment, in one
 * transaction. Every way an invoice gets paid ends here. Returns false when the claim was no longer held (then nothing
 * changed).
 */
export async function markPaid(
  db: Db,
  id: string,
  claim: string | null,
  settlement: { network: string; transaction: string; payer: string | undefined },
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const paid = await tx
      .update(invoices)
      .set({
        status: "paid",
        paidAt: now,
        updatedAt: now,
        paymentNetwork: settlement.network,
        paymentTx: settlement.transaction,
        paymentPayer: settlement.payer ?? null,
        paymentClaim: null,
        paymentClaimUntil: null,
      })
      .where(and(eq(invoices.id, id), eq(invoices.status, "unpaid"), claim === null ? isNull(invoices.paymentClaim) : eq(invoices.paymentClaim, claim)))
      .returning({ id: invoices.id });
    if (paid.length === 0) return false;
    await tx.update(orders).set({ runAt: now, updatedAt: now }).where(eq(orders.invoiceId, id));
    return true;
  });
}

/**
 * Marks unpaid invoices past their expiry as expired (no payment holds them) and frees the stock their orders
 * reserved, in one transaction. Returns how many invoices expired.
 */
export async function expireInvoices(db: Db, now = new Date()): Promise<number> {
  const after: (() => void)[] = [];
  const expired = await db.transaction(async (tx) => {
    const rows = await tx
      .update(invoices)
      .set({ status: "expired", updatedAt: now })
      .where(and(eq(invoices.status, "unpaid"), sql`${invoices.expiresAt} <= ${now}`, unclaimed(now)))
      .returning({ id: invoices.id });
    await releaseCodes(
      tx as unknown as Db,
      rows.map((r) => r.id),
    );
    // An invoice that expired unpaid is final (a merchant's reads denied: its webhook goes out with the expiry).
    for (const r of rows) after.push(...(await emit(tx, "invoice.final", { invoiceId: r.id, now })));
    return rows.length;
  });
  runAfterCommit(after);
  return expired;
}

/**
 * Refuses an unpaid invoice before payment: it ends `denied` with the reason (`status_reason`, e.g. `balance_too_low`
 * for an `auto_pay` the balance could not cover), its orders end `failed` with the reason's text, the stock they
 * reserved is freed, and, a final status reached, its webhook is written in the same transaction. Returns whether it
 * was refused (false: no longer unpaid).
 */
export async function denyUnpaid(db: Db, id: string, reason: { code: string; message: string }, now = new Date()): Promise<boolean> {
  const after: (() => void)[] = [];
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
    after.push(...(await emit(tx, "invoice.final", { invoiceId: id, now })));
    return true;
  });
  runAfterCommit(after);
  return denied;
}

import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { invoices, orders } from "@/lib/db/schema";

/**
 * Sends `amountAtomic` USDC back to the wallet that paid, on the network it paid on; returns the transaction.
 * Throwing means nothing was sent (the refund is tried again later).
 */
export type Payout = (to: { network: string; payer: string }, amountAtomic: bigint) => Promise<string>;

/** A refund in progress holds its orders this long: longer than any payout takes, so two workers never both pay. */
const REFUND_LOCK_MS = 10 * 60_000;
/** A payout that failed is tried again after this. */
const REFUND_RETRY_MS = 60_000;
/** A refund that cannot be sent at all (no payer address) waits for the operator; it is looked at again daily. */
const NO_ADDRESS_RETRY_MS = 24 * 60 * 60_000;

export type Refund = { invoiceId: string; orders: number; amountUsdc: bigint; tx: string | null };

/** Failed, not yet refunded, and not held by a refund in progress. */
const refundable = (now: Date) =>
  and(eq(orders.status, "failed"), isNull(orders.refundTx), or(isNull(orders.lockedUntil), lt(orders.lockedUntil, now)));

/**
 * Refunds the failed orders of a paid invoice with one payout of their summed prices, then marks each `refunded` with
 * its own price and the transaction. The orders are claimed first (their `locked_until`), so a concurrent worker does
 * not pay the same refund. A crash between the payout and the final write leaves them claimed; after the lock lapses
 * they would be paid again, so the window is kept to one update. Returns null when nothing was refunded.
 */
export async function refundFailedOrders(db: Db, invoiceId: string, payout: Payout, opts: { now?: Date } = {}): Promise<Refund | null> {
  const now = opts.now ?? new Date();
  const [invoice] = await db
    .select({ paidAt: invoices.paidAt, network: invoices.paymentNetwork, paymentPayer: invoices.paymentPayer, payer: invoices.payer })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  if (!invoice?.paidAt || !invoice.network) return null;

  const until = new Date(now.getTime() + REFUND_LOCK_MS);
  const claimed = await db
    .update(orders)
    .set({ lockedUntil: until, updatedAt: now })
    .where(and(eq(orders.invoiceId, invoiceId), refundable(now)))
    .returning({ id: orders.id, priceUsdc: orders.priceUsdc });
  if (claimed.length === 0) return null;
  const ids = claimed.map((o) => o.id);
  const release = (lastError: string, retryMs: number) =>
    db
      .update(orders)
      .set({ lockedUntil: new Date(now.getTime() + retryMs), lastError: lastError.slice(0, 500) })
      .where(and(inArray(orders.id, ids), eq(orders.lockedUntil, until)));

  const payer = refundAddress(invoice.network, invoice.paymentPayer, invoice.payer);
  if (!payer) {
    await release(`refund: no payer address on ${invoice.network} is recorded for this invoice`, NO_ADDRESS_RETRY_MS);
    return null;
  }
  const amountUsdc = claimed.reduce((sum, o) => sum + o.priceUsdc, 0n);
  let tx: string | null = null;
  if (amountUsdc > 0n) {
    try {
      tx = await payout({ network: invoice.network, payer }, amountUsdc);
    } catch (err) {
      await release(`refund: ${err instanceof Error ? err.message : String(err)}`, REFUND_RETRY_MS);
      throw err;
    }
  }
  // Not conditional on the claim: the money has moved, so the record must be written whatever happened meanwhile.
  await db
    .update(orders)
    .set({ status: "refunded", refundUsdc: sql`${orders.priceUsdc}`, refundTx: tx, lockedUntil: null, updatedAt: opts.now ?? new Date() })
    .where(and(inArray(orders.id, ids), eq(orders.status, "failed")));
  return { invoiceId, orders: claimed.length, amountUsdc, tx };
}

/**
 * Where a refund goes: the address that signed the payment, else the invoice's own payer when it is a wallet of the
 * same chain family (invoices keep the payer as `eip155:0x…` or `solana:<address>`).
 */
function refundAddress(network: string, paymentPayer: string | null, payerKey: string): string | null {
  if (paymentPayer) return paymentPayer;
  const [namespace, address] = payerKey.split(":");
  return address && network.startsWith(`${namespace}:`) ? address : null;
}

/**
 * Refunds every paid invoice that has failed orders waiting, one payout per invoice. A payout that fails is recorded
 * on its orders and retried later; the others still go out. Throws the first failure at the end.
 */
export async function refundDue(db: Db, payout: Payout, opts: { now?: Date; limit?: number } = {}): Promise<Refund[]> {
  const now = opts.now ?? new Date();
  const due = await db
    .selectDistinct({ invoiceId: orders.invoiceId })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(and(refundable(now), isNotNull(invoices.paidAt)))
    .limit(opts.limit ?? 20);
  const refunds: Refund[] = [];
  const errors: unknown[] = [];
  for (const { invoiceId } of due) {
    try {
      const refund = await refundFailedOrders(db, invoiceId, payout, { now: opts.now });
      if (refund) refunds.push(refund);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw new Error(`${errors.length} refund(s) failed; they are retried in a minute`, { cause: errors[0] });
  return refunds;
}

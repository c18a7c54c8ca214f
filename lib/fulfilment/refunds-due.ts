import { isSignature } from "@solana/kit";
import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { usdcRefundDue } from "./refund";

/** A paid invoice whose failed orders have not been paid back yet. */
export type RefundDue = {
  invoiceId: string;
  /** The invoice's payer key (`eip155:0x…`, `solana:<address>`). */
  payer: string;
  /** The network the invoice was paid on: the refund goes out on it. */
  network: string | null;
  /** The address that signed the payment: where the refund goes (else the payer key's address). */
  paymentPayer: string | null;
  orders: number;
  /** The summed prices of those orders, in USDC atomic units. */
  amountUsdc: bigint;
  /** The oldest last change of those orders: their failure, or the latest refund attempt that failed. */
  since: Date;
  /** The latest error: why a payout failed, else why the order failed. */
  lastError: string | null;
};

/** Failed orders of paid invoices: not refunded yet (an automatic transfer may be on its way: see lastError). */
const due = and(eq(orders.status, "failed"), isNotNull(invoices.paidAt));

/**
 * Every refund due, oldest first: one row per paid invoice with failed orders not yet refunded, including those an
 * automatic payout is retrying.
 */
export async function listRefundsDue(db: Db): Promise<RefundDue[]> {
  const rows = await db
    .select({
      invoiceId: invoices.id,
      payer: invoices.payer,
      network: invoices.paymentNetwork,
      paymentPayer: invoices.paymentPayer,
      orders: sql<number>`count(*)::int`,
      amountUsdc: sql<bigint>`sum(${usdcRefundDue})`.mapWith(orders.priceUsdc),
      since: sql<Date>`min(${orders.updatedAt})`.mapWith(orders.updatedAt),
      lastError: sql<string | null>`(array_agg(${orders.lastError} order by ${orders.updatedAt} desc, ${orders.position} desc))[1]`,
    })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(due)
    .groupBy(invoices.id)
    .orderBy(asc(sql`min(${orders.updatedAt})`), asc(invoices.id));
  return rows;
}

/**
 * Records a refund the operator paid by hand: the invoice's failed, not yet refunded orders become `refunded` with
 * their own price and `tx`. The transaction must look like one of the invoice's network family (EVM: 0x and 64 hex;
 * Solana: a base58 signature). Returns how many orders were marked; refuses when none are due.
 */
export async function markRefundPaid(db: Db, invoiceId: string, tx: string, opts: { now?: Date } = {}): Promise<number> {
  const [invoice] = await db.select({ network: invoices.paymentNetwork, paidAt: invoices.paidAt }).from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw new DomainError("refund_refused", `No invoice ${invoiceId}`);
  if (!invoice.paidAt || !invoice.network) throw new DomainError("refund_refused", `Invoice ${invoiceId} was not paid: no refund is due`);
  const refundTx = transactionFor(invoice.network, tx.trim());
  const now = opts.now ?? new Date();
  const marked = await db
    .update(orders)
    .set({ status: "refunded", refundUsdc: usdcRefundDue, refundTx, lockedUntil: null, updatedAt: now })
    .where(and(eq(orders.invoiceId, invoiceId), eq(orders.status, "failed"), isNull(orders.refundTx)))
    .returning({ id: orders.id });
  if (marked.length === 0) {
    const [sending] = await db
      .select({ tx: orders.refundTx })
      .from(orders)
      .where(and(eq(orders.invoiceId, invoiceId), eq(orders.status, "failed"), isNotNull(orders.refundRaw)));
    if (sending?.tx)
      throw new DomainError(
        "refund_refused",
        `Invoice ${invoiceId}'s refund is being paid automatically (transfer ${sending.tx}): wait for it rather than paying it twice`,
      );
    throw new DomainError("refund_refused", `Invoice ${invoiceId} has no refund due`);
  }
  return marked.length;
}

function transactionFor(network: string, tx: string): string {
  if (network.startsWith("eip155:")) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(tx))
      throw new DomainError("refund_refused", `${JSON.stringify(tx)} is not an EVM transaction hash (0x and 64 hex digits) for ${network}`);
    return tx.toLowerCase();
  }
  if (network.startsWith("solana:")) {
    // isSignature throws rather than answers on a character outside base58.
    if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(tx) || !isSignature(tx))
      throw new DomainError("refund_refused", `${JSON.stringify(tx)} is not a Solana transaction signature (base58, 64 bytes) for ${network}`);
    return tx;
  }
  throw new DomainError("refund_refused", `Unknown network family of ${network}`);
}

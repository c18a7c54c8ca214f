import { centsToDecimal } from "@/lib/platform/money";
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { ledgerEntries, merchants } from "@/lib/platform/db/schema";

export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/** A debit the balance cannot cover: names both amounts (USD cents). */
export class BalanceTooLow extends Error {
  constructor(
    readonly requiredCents: bigint,
    readonly availableCents: bigint,
  ) {
    super(`Balance too low: this invoice needs ${centsToDecimal(requiredCents)} USD and the balance is ${centsToDecimal(availableCents)} USD.`);
    this.name = "BalanceTooLow";
  }
}

export async function balanceOf(db: Db, merchantId: string): Promise<bigint> {
  const [row] = await db.select({ balance: merchants.balanceCents }).from(merchants).where(eq(merchants.id, merchantId));
  if (!row) throw new Error(`No merchant ${merchantId}`);
  return row.balance;
}

type Movement = { merchantId: string; amountCents: bigint; invoiceId?: string; orderId?: string; note?: string };

/**
 * Moves the balance and appends the ledger entry, in one statement each, inside the caller's transaction (or a new
 * one). A debit is a conditional update (`balance_cents >= amount`): concurrent debits serialize on the merchant's
 * row and none can overdraw.
 */
async function move(db: Db, kind: LedgerEntry["kind"], m: Movement): Promise<LedgerEntry> {
  if (m.amountCents < 0n) throw new Error("Ledger amounts are positive; the kind says which way they go");
  const delta = kind === "debit" ? -m.amountCents : m.amountCents;
  const [updated] = await db
    .update(merchants)
    .set({ balanceCents: sql`${merchants.balanceCents} + ${delta}` })
    .where(and(eq(merchants.id, m.merchantId), kind === "debit" ? gte(merchants.balanceCents, m.amountCents) : undefined))
    .returning({ balance: merchants.balanceCents });
  if (!updated) {
    const available = await balanceOf(db, m.merchantId);
    throw new BalanceTooLow(m.amountCents, available);
  }
  const [entry] = await db
    .insert(ledgerEntries)
    .values({
      merchantId: m.merchantId,
      kind,
      amountCents: m.amountCents,
      balanceAfterCents: updated.balance,
      invoiceId: m.invoiceId,
      orderId: m.orderId,
      note: m.note,
    })
    .returning();
  return entry!;
}

const inTransaction = <T>(db: Db, work: (tx: Db) => Promise<T>) => db.transaction((tx) => work(tx));

/** Adds money to the balance (an operator credit, or a USDC top-up once settled). */
export function credit(db: Db, m: Movement): Promise<LedgerEntry> {
  if (m.amountCents <= 0n) throw new Error("A credit is a positive amount");
  return inTransaction(db, (tx) => move(tx, "credit", m));
}

/** Takes an invoice's price from the balance, or throws BalanceTooLow. Call inside the transaction that marks the invoice paid. */
export function debit(tx: Db, m: Movement & { invoiceId: string }): Promise<LedgerEntry> {
  return move(tx, "debit", m);
}

/**
 * Takes the price of something not an invoice (a gift card batch, named in `note`) from the balance, or throws
 * BalanceTooLow; `giveBack` returns part of it (the caller makes sure it does so once). Both inside the caller's transaction.
 */
export const purchase = {
  debit: (tx: Db, m: Movement & { note: string }) => move(tx, "debit", m),
  giveBack: (tx: Db, m: Movement & { note: string }) => move(tx, "refund", m),
};

/** Gives a failed order's price back to the balance, once per order (a second call returns null). */
export async function refund(tx: Db, m: Movement & { orderId: string }): Promise<LedgerEntry | null> {
  const [done] = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, m.orderId), eq(ledgerEntries.kind, "refund")));
  if (done) return null;
  return move(tx, "refund", m);
}

/** The ledger, newest first, paged by entry id (`before`: entries older than that id). */
export async function listLedger(db: Db, merchantId: string, page: { limit: number; before?: number }): Promise<LedgerEntry[]> {
  return db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.merchantId, merchantId), page.before !== undefined ? lt(ledgerEntries.id, page.before) : undefined))
    .orderBy(desc(ledgerEntries.id))
    .limit(page.limit);
}

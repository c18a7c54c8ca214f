import { createHash } from "node:crypto";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address, createSolanaRpc, getBase58Decoder, type Signature } from "@solana/kit";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { addressTransfers, chainWatchers, paymentAddresses, settlements } from "@/lib/platform/db/schema";
import { runAfterCommit } from "@/lib/platform/events";
import type { SolanaNetwork } from "@/lib/platform/networks";
import { applyDecision, leasedRound, type AddressEffect, type PaymentAddressRow, type WatchReport } from "./address-watch";

// Paying a USDC invoice on Solana by a plain transfer (Solana Pay): the payer's wallet sends USDC to the shop's own
// token account with the invoice's reference key among the transfer's accounts (read-only, never a signer). One watcher
// per network reads the shop's token account's new transactions, not one call per invoice, and adds what each brought
// to the invoice whose reference it carries, once.

/** Signatures asked for in one call (the RPC's most). */
const SIGNATURES_PER_CALL = 1000;
/**
 * Transactions read in full in one round, oldest first (the cursor then stands after the last one; the rest are read
 * next round): a backlog (a first start, a lost cursor) never makes a round outlive its lease.
 */
const TRANSACTIONS_PER_ROUND = 200;
/** How far a transaction's block time may be before the invoice's creation on the shop's clock and still be read. */
const CLOCK_SLACK_S = 60;

/**
 * An invoice's Solana Pay reference: 32 bytes from its id, as an address (no key exists for it: a reference is only
 * looked for among a transaction's accounts, never signs). Never another invoice's.
 */
export function solanaReference(invoiceId: string): string {
  return getBase58Decoder().decode(createHash("sha256").update(`x402-storefront solana-pay reference ${invoiceId}`).digest());
}

/** The shop's USDC token account on a network: where Solana Pay transfers go (the payTo wallet's associated account). */
export async function shopTokenAccount(n: SolanaNetwork): Promise<string> {
  const [ata] = await findAssociatedTokenPda({ owner: address(n.payTo), mint: address(n.usdc.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

/** A Solana Pay transfer request URI: recipient, amount (in USDC), the token, the reference, and what it is for. */
export function solanaPayUri(row: { payTo: string; asset: string; address: string; invoiceId: string }, amount: string): string {
  const q = new URLSearchParams({ amount, "spl-token": row.asset, reference: row.address, label: "x402 Storefront", message: `Invoice ${row.invoiceId}` });
  return `solana:${row.payTo}?${q.toString().replace(/\+/g, "%20")}`;
}

type TokenBalance = { accountIndex: number; mint: string; uiTokenAmount: { amount: string } };

/** What a transaction brought to the shop's token account: its USDC balance after, less before (0 when it lost or kept). */
function arrived(
  meta: { preTokenBalances?: readonly TokenBalance[] | null; postTokenBalances?: readonly TokenBalance[] | null },
  index: number,
  mint: string,
): bigint {
  const of = (list: readonly TokenBalance[] | null | undefined) =>
    BigInt(list?.find((b) => b.accountIndex === index && b.mint === mint)?.uiTokenAmount.amount ?? "0");
  const delta = of(meta.postTokenBalances) - of(meta.preTokenBalances);
  return delta > 0n ? delta : 0n;
}

/**
 * One round of a Solana network's reference watcher, safe on several servers (a lease per network, as the EVM
 * watcher's): the shop's token account's transactions since the last one read (`chain_watchers.cursor`), at
 * `confirmed` (Solana's depth for payments, as x402's), oldest first, back to the oldest open invoice's creation (no
 * older transaction can carry a reference; with no invoice open, the round asks the node nothing). A transaction that succeeded, was not paid for
 * by one of the shop's own fee payers (`feePayers`: an x402 settlement, counted as one, never by reference) and
 * carries an open invoice's reference adds what it brought to that address, once (`address_transfers`, in the
 * transaction that adds it and records the effect's decision). Addresses holding an undecided part are decided again
 * each round (an invoice that ended meanwhile). A transaction the node does not serve yet stops the round there: it
 * and those after it are read next round.
 */
export async function watchSolanaReferences(
  db: Db,
  n: SolanaNetwork,
  opts: { effect: AddressEffect; feePayers: ReadonlySet<string>; now?: Date },
): Promise<WatchReport> {
  return leasedRound(db, n.network, opts.now ?? new Date(), (report, now) => round(db, n, opts, now, report));
}

async function round(db: Db, n: SolanaNetwork, opts: { effect: AddressEffect; feePayers: ReadonlySet<string> }, now: Date, report: WatchReport) {
  const open = await db
    .select({ oldest: sql<Date | null>`min(${paymentAddresses.createdAt})`.mapWith(paymentAddresses.createdAt) })
    .from(paymentAddresses)
    .where(and(eq(paymentAddresses.network, n.network), gt(paymentAddresses.watchUntil, now)));
  const oldest = open[0]?.oldest;
  // Nothing to look for: no call to the node (the next scan skips what is older than the invoices it looks for).
  if (!oldest) return;
  // No transaction older than the oldest open invoice can carry a reference of one (a minute's slack for clocks).
  const since = BigInt(Math.floor(oldest.getTime() / 1000) - CLOCK_SLACK_S);
  const rpc = createSolanaRpc(n.rpcUrl);
  const ata = await shopTokenAccount(n);
  const [watcher] = await db.select({ cursor: chainWatchers.cursor }).from(chainWatchers).where(eq(chainWatchers.network, n.network));
  const cursor = watcher?.cursor ?? undefined;

  // Newest first, page by page, down to the cursor or to what is older than every open invoice.
  const fresh: { signature: Signature; err: unknown; blockTime: bigint | null }[] = [];
  let before: Signature | undefined;
  for (;;) {
    const batch = await rpc
      .getSignaturesForAddress(address(ata), {
        commitment: "confirmed",
        limit: SIGNATURES_PER_CALL,
        ...(cursor ? { until: cursor as Signature } : {}),
        ...(before ? { before } : {}),
      })
      .send();
    report.rpcCalls++;
    fresh.push(...batch.map((b) => ({ signature: b.signature, err: b.err, blockTime: b.blockTime === null ? null : BigInt(b.blockTime) })));
    const last = batch.at(-1);
    if (!last || batch.length < SIGNATURES_PER_CALL || (last.blockTime !== null && BigInt(last.blockTime) < since)) break;
    before = last.signature;
  }
  // The open addresses, read after the transactions were listed: any invoice whose reference a listed transaction
  // carries existed before it, so is among them.
  const rows = await db
    .select()
    .from(paymentAddresses)
    .where(and(eq(paymentAddresses.network, n.network), gt(paymentAddresses.watchUntil, now)));
  report.addresses = rows.length;
  const byReference = new Map(rows.map((r) => [r.address, r]));

  // Oldest first.
  let read = 0;
  for (const s of fresh.reverse()) {
    const relevant = s.err === null && (s.blockTime === null || s.blockTime >= since);
    if (relevant) {
      if (read++ >= TRANSACTIONS_PER_ROUND) break;
      const tx = await rpc.getTransaction(s.signature, { commitment: "confirmed", encoding: "json", maxSupportedTransactionVersion: 0 }).send();
      report.rpcCalls++;
      // Not served yet: it and those after it are read next round.
      if (!tx) break;
      const keys: string[] = [
        ...tx.transaction.message.accountKeys,
        ...(tx.meta?.loadedAddresses?.writable ?? []),
        ...(tx.meta?.loadedAddresses?.readonly ?? []),
      ];
      const row = opts.feePayers.has(keys[0] ?? "") || !tx.meta ? undefined : keys.map((k) => byReference.get(k)).find((r) => r !== undefined);
      const index = keys.indexOf(ata);
      const amount = row && index >= 0 ? arrived(tx.meta as never, index, n.usdc.mint) : 0n;
      if (row && amount > 0n) {
        const counted = await count(db, row, s.signature, amount, opts.effect, now);
        if (counted) {
          report.received++;
          byReference.set(row.address, counted);
        }
      }
    }
    report.cursor = s.signature;
  }

  // What waits for a decision (an invoice that ended short, a late payment weighed again) is decided again.
  for (const r of byReference.values()) {
    if (r.received - r.applied - r.credited <= 0n) continue;
    const after = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentAddresses)
        .set({ updatedAt: now })
        .where(and(eq(paymentAddresses.network, r.network), eq(paymentAddresses.address, r.address), eq(paymentAddresses.received, r.received)))
        .returning();
      if (!row) return [];
      const decided = await opts.effect.decide(tx as unknown as Db, row, now);
      await applyDecision(tx as unknown as Db, row, decided);
      return decided.after ?? [];
    });
    runAfterCommit(after);
  }
}

/** Adds one transaction's transfer to its address, once, with the effect's decision; the row as it then stands, or null when it was counted before. */
async function count(db: Db, r: PaymentAddressRow, signature: string, amount: bigint, effect: AddressEffect, now: Date): Promise<PaymentAddressRow | null> {
  const { row, after } = await db.transaction(async (tx) => {
    // The transaction of an x402 settlement (whatever fee payer it had) is counted as that settlement, never here.
    const x402 = await tx.select({ id: settlements.id }).from(settlements).where(eq(settlements.transaction, signature)).limit(1);
    if (x402.length > 0) return { row: null, after: [] };
    const fresh = await tx
      .insert(addressTransfers)
      .values({ network: r.network, id: signature, address: r.address, amount })
      .onConflictDoNothing()
      .returning({ id: addressTransfers.id });
    if (fresh.length === 0) return { row: null, after: [] };
    const [row] = await tx
      .update(paymentAddresses)
      .set({
        received: sql`${paymentAddresses.received} + ${amount}`,
        seen: sql`${paymentAddresses.seen} + ${amount}`,
        updatedAt: now,
        watchUntil: sql`greatest(${paymentAddresses.watchUntil}, ${new Date(now.getTime() + 24 * 60 * 60_000)})`,
      })
      .where(and(eq(paymentAddresses.network, r.network), eq(paymentAddresses.address, r.address)))
      .returning();
    const decided = await effect.decide(tx as unknown as Db, row!, now);
    await applyDecision(tx as unknown as Db, row!, decided);
    const [settled] = await tx
      .select()
      .from(paymentAddresses)
      .where(and(eq(paymentAddresses.network, r.network), eq(paymentAddresses.address, r.address)));
    return { row: settled!, after: decided.after ?? [] };
  });
  runAfterCommit(after);
  return row;
}

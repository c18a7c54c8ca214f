import { USDC_PER_CENT } from "@/lib/platform/money";
import { and, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { logFor } from "@/lib/platform/log";
import type { Db } from "@/lib/platform/db";
import { notHeld } from "@/lib/platform/db/claim";
import { claimHolder } from "@/lib/platform/db/presence";
import { isShuttingDown } from "@/lib/platform/runtime/shutdown";
import { invoices, orders, paymentAddresses } from "@/lib/platform/db/schema";
import { errorText } from "@/lib/platform/errors";

/** A refund transfer signed and stored before it is sent: its id, its wire bytes, and when it can no longer land. */
export type SignedPayout = { transaction: string; raw: string; expiry: string };

/** A stored transfer has been replaced this many times at most; then it waits for the chain at the last fee. */
export const MAX_REFUND_REPLACEMENTS = 3;

/** What the chain says of a stored transfer: it landed, it failed on chain, it can never land, or not yet known. */
export type PayoutStatus = "landed" | "failed" | "dead" | "pending";

/** A stored transfer's status, with the version that landed or failed (its nonce used by it). */
export type PayoutVerdict = { status: PayoutStatus; transaction?: string };

/**
 * How refunds move money, in three steps so that a transfer is stored before it can reach the chain:
 * - `sign`: signs a transfer of `amountAtomic` USDC (ether with `asset: "native"`, on EVM networks) back to the payer
 *   on the network it paid on, and hands it to
 *   `store` (which keeps it on the orders, or on the refund of a payment by address, and may refuse) before the
 *   wallet's next transfer can be signed. Throws
 *   when nothing could be signed (no key, no funds: nothing was stored).
 * - `send`: puts a stored transfer on the chain; sending the same one again is harmless. Throws when the node refused it.
 * - `status`: what the chain says of a transfer, given all its versions (the stored one first, then those it replaced):
 *   "landed" or "failed" with the version mined; "dead" only once the chain proves that no version can ever be mined
 *   (a new transfer is signed then: a wrong "dead" pays the refund twice); "pending" otherwise, including whenever the
 *   node did not answer or could be behind. Throws (taken as pending) when the chain could not be asked.
 * - `replace` (EVM): the same transfer with the same nonce at a higher fee, for one that the chain's fee keeps out of
 *   the blocks; stored beside the first before it is sent, since either may land (never both).
 */
export type Payout = {
  sign(
    to: { network: string; payer: string; asset?: "native" },
    amountAtomic: bigint,
    store: (p: SignedPayout) => Promise<boolean>,
  ): Promise<SignedPayout | null>;
  send(network: string, p: SignedPayout): Promise<void>;
  status(network: string, versions: readonly SignedPayout[]): Promise<PayoutVerdict>;
  replace?(network: string, p: SignedPayout): Promise<SignedPayout | null>;
  /** How long a sent transfer is watched before the refund is left for the next round. */
  confirmTimeoutMs?: number;
  /** A sent transfer still waiting after this is replaced at a higher fee (where `replace` exists). */
  stuckAfterMs?: number;
};

/**
 * A refund in progress holds its orders this long. Short: two workers can never store two transfers for one order (the
 * store is conditional), and two following one stored transfer only send the same bytes; after a crash the next
 * round picks the stored transfer up within a minute.
 */
const REFUND_LOCK_MS = 60_000;
/** A payout that failed, or a transfer still unconfirmed, is looked at again after this. */
const REFUND_RETRY_MS = 60_000;
/** A refund that cannot be sent at all (no payer address) waits for the operator; it is looked at again daily. */
const NO_ADDRESS_RETRY_MS = 24 * 60 * 60_000;
const POLL_MS = 250;

export type Refund = { invoiceId: string; orders: number; amountUsdc: bigint; tx: string | null };

/** Failed, not refunded, no transfer stored for it, and not held by a refund in progress. */
const refundable = (now: Date) => and(eq(orders.status, "failed"), isNull(orders.refundTx), notHeld(orders.lockedUntil, now));
/** Failed, with a transfer stored (signed, maybe sent) whose fate is not recorded yet. */
const inFlight = (now: Date) => and(eq(orders.status, "failed"), isNotNull(orders.refundRaw), notHeld(orders.lockedUntil, now));

/**
 * Refunds the failed orders of a paid invoice with one transfer of their summed prices, exactly once:
 * 1. the transfer is signed, then stored on the orders in the transaction that claims them (two workers cannot both
 *    store one: the claim is conditional), before it is sent;
 * 2. it is sent and watched; once it landed the orders become `refunded` with their own price and its transaction;
 * 3. a later round (after a crash, an RPC error, a restart) finds the stored transfer, asks the chain, and sends the
 *    same bytes again; only a transfer the chain shows can never land (failed, or its nonce / blockhash is gone) is
 *    dropped, and the orders are refunded anew.
 * Returns the refund once recorded, null when nothing was refunded this time.
 */
export async function refundFailedOrders(db: Db, invoiceId: string, payout: Payout, opts: { now?: Date } = {}): Promise<Refund | null> {
  const now = opts.now ?? new Date();
  const [invoice] = await db
    .select({
      paidAt: invoices.paidAt,
      network: invoices.paymentNetwork,
      paymentPayer: invoices.paymentPayer,
      payer: invoices.payer,
      // Paid by a transfer to the invoice's own address on its network: where the payer asked refunds to go (or none).
      byAddress: sql<{
        to: string | null;
      } | null>`(SELECT json_build_object('to', ${paymentAddresses.refundAddress}) FROM ${paymentAddresses} WHERE ${paymentAddresses.invoiceId} = ${invoices.id} AND ${paymentAddresses.network} = ${invoices.paymentNetwork} AND ${invoices.paymentTx} IS NULL)`,
    })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  if (!invoice?.paidAt || !invoice.network) return null;
  const network = invoice.network;
  const until = new Date(now.getTime() + REFUND_LOCK_MS);

  // A stored transfer first: it may have landed, or be on its way.
  const held = await db
    .update(orders)
    .set({ lockedUntil: until, lockedBy: claimHolder() })
    .where(and(eq(orders.invoiceId, invoiceId), inFlight(now)))
    .returning({
      id: orders.id,
      priceUsdc: usdcRefundDue,
      tx: orders.refundTx,
      raw: orders.refundRaw,
      expiry: orders.refundExpiry,
      superseded: orders.refundSuperseded,
    });
  if (held.length > 0) {
    const stored = { transaction: held[0]!.tx!, raw: held[0]!.raw!, expiry: held[0]!.expiry ?? "" };
    const ids = held.filter((o) => o.tx === stored.transaction).map((o) => o.id);
    const amountUsdc = sum(held.filter((o) => ids.includes(o.id)));
    return watch(db, payout, { invoiceId, network, ids, amountUsdc, stored, earlier: held[0]!.superseded ?? [], until, now, resend: true });
  }

  const due = await db
    .select({ id: orders.id, priceUsdc: usdcRefundDue })
    .from(orders)
    .where(and(eq(orders.invoiceId, invoiceId), refundable(now)));
  if (due.length === 0) return null;
  const ids = due.map((o) => o.id);
  const amountUsdc = sum(due);
  const setError = (lastError: string, retryMs: number) =>
    db
      .update(orders)
      .set({ lockedUntil: new Date(now.getTime() + retryMs), lastError: lastError.slice(0, 500) })
      .where(and(inArray(orders.id, ids), eq(orders.status, "failed"), isNull(orders.refundTx)));

  // Nothing to pay in USDC (a gift card paid it all and got it back): refunded as it is, whatever the invoice's network.
  if (amountUsdc <= 0n) {
    await db
      .update(orders)
      .set({ status: "refunded", refundUsdc: 0n, lockedUntil: null, updatedAt: now })
      .where(and(inArray(orders.id, ids), refundable(now)));
    return { invoiceId, orders: ids.length, amountUsdc, tx: null };
  }
  const payer = invoice.byAddress ? invoice.byAddress.to : refundAddress(network, invoice.paymentPayer, invoice.payer);
  if (!payer) {
    await setError(
      invoice.byAddress
        ? "refund: paid by a transfer to the invoice's address, and the payer gave no refund address: it waits for the operator"
        : `refund: no payer address on ${network} is recorded for this invoice`,
      NO_ADDRESS_RETRY_MS,
    );
    return null;
  }

  // Signed, then stored on exactly these orders in the transaction that claims them.
  const store = (p: SignedPayout) =>
    db
      .transaction(async (tx) => {
        const claimed = await tx
          .update(orders)
          .set({ lockedUntil: until, lockedBy: claimHolder(), refundTx: p.transaction, refundRaw: p.raw, refundExpiry: p.expiry, updatedAt: now })
          .where(and(inArray(orders.id, ids), refundable(now)))
          .returning({ id: orders.id });
        // Another worker took some of them meanwhile: keep nothing (this transfer is never sent).
        if (claimed.length !== ids.length) throw new NotStored();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof NotStored) return false;
        throw err;
      });
  let stored: SignedPayout | null;
  try {
    stored = await payout.sign({ network, payer }, amountUsdc, store);
  } catch (err) {
    await setError(`refund: ${errorText(err)}`, REFUND_RETRY_MS);
    throw err;
  }
  if (!stored) return null;
  return watch(db, payout, { invoiceId, network, ids, amountUsdc, stored, earlier: [], until, now, resend: false });
}

/**
 * Sends a stored transfer and watches it: landed -> the orders are refunded with it; failed or can never land -> it is
 * dropped from the orders (the next round signs a new one); still pending -> left, stored, for the next round.
 *
 * An EVM transfer that waits longer than `payout.stuckAfterMs` (the base fee rose past its fee) is replaced by the same
 * transfer at a higher fee: the new version is stored first, the old hash kept beside it (`refund_superseded`), then
 * sent. All versions share one nonce, so at most one lands; the refund is recorded with the one that did.
 */
async function watch(
  db: Db,
  payout: Payout,
  r: {
    invoiceId: string;
    network: string;
    ids: string[];
    amountUsdc: bigint;
    stored: SignedPayout;
    earlier: readonly string[];
    until: Date;
    now: Date;
    resend: boolean;
  },
): Promise<Refund | null> {
  const { network } = r;
  let stored = r.stored;
  const earlier = [...r.earlier];
  const mine = () => and(inArray(orders.id, r.ids), eq(orders.status, "failed"), eq(orders.refundTx, stored.transaction));
  const later = (lastError: string | null) =>
    db
      .update(orders)
      .set({ lockedUntil: new Date(Date.now() + REFUND_RETRY_MS), lockedBy: claimHolder(), ...(lastError ? { lastError: lastError.slice(0, 500) } : {}) })
      .where(mine());
  // What the chain says of the transfer, all its versions together (they share a nonce): the one that landed or
  // failed, dead once no version can land, else pending. A question that fails is no answer.
  let landedAs = stored.transaction;
  const ask = async (): Promise<PayoutStatus> => {
    const versions = [stored, ...earlier.map((transaction) => ({ transaction, raw: "", expiry: stored.expiry }))];
    const verdict = await payout.status(network, versions).catch((): PayoutVerdict => ({ status: "pending" }));
    if (verdict.status === "landed" || verdict.status === "failed") landedAs = verdict.transaction ?? stored.transaction;
    return verdict.status;
  };

  let status: PayoutStatus = r.resend ? await ask() : "pending";
  if (status === "pending") {
    try {
      await payout.send(network, stored);
    } catch (err) {
      // The node refused it now (funds, fees); it stays stored and is sent again later, unless the chain says it is dead.
      status = await ask();
      if (status === "pending") {
        await later(`refund: ${stored.transaction} could not be sent yet: ${errorText(err)}`);
        throw err;
      }
    }
  }
  const deadline = Date.now() + (payout.confirmTimeoutMs ?? 5 * 60_000);
  let sentAt = Date.now();
  // A server that stops watches no longer: the transfer stays stored, and the claim is handed back at the stop
  // (lib/server/hand-back.ts) for the next start or another server to follow at once.
  while (status === "pending" && Date.now() < deadline && !isShuttingDown()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    status = await ask();
    if (status !== "pending" || !payout.replace || earlier.length >= MAX_REFUND_REPLACEMENTS) continue;
    if (Date.now() - sentAt < (payout.stuckAfterMs ?? 12_000)) continue;
    const dearer = await payout.replace(network, stored).catch(() => null);
    sentAt = Date.now();
    if (!dearer) continue;
    // Stored beside the first before it can reach the chain, on all of the transfer's orders or none (in one
    // transaction); conditional, so that two workers never both replace it.
    const current = mine();
    const moved = await db
      .transaction(async (tx) => {
        const rows = await tx
          .update(orders)
          .set({
            refundTx: dearer.transaction,
            refundRaw: dearer.raw,
            refundSuperseded: sql`array_append(coalesce(${orders.refundSuperseded}, '{}'::text[]), ${stored.transaction})`,
            lockedUntil: new Date(Date.now() + REFUND_LOCK_MS),
            lockedBy: claimHolder(),
          })
          .where(current)
          .returning({ id: orders.id });
        if (rows.length !== r.ids.length) throw new NotStored();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof NotStored) return false;
        throw err;
      });
    if (!moved) return null;
    logFor({ invoice_id: r.invoiceId }).warn(
      { network, transaction: stored.transaction, replacement: dearer.transaction },
      "a refund transfer waits for a lower fee: sent again at a higher one",
    );
    earlier.push(stored.transaction);
    stored = dearer;
    // A refusal now (the first landed meanwhile: its nonce is used) is seen by the next question.
    await payout.send(network, stored).catch(() => undefined);
  }
  if (status === "landed") {
    // Not conditional on the lock: the money has moved, so the record is written whatever happened meanwhile.
    const done = await db
      .update(orders)
      .set({
        status: "refunded",
        refundUsdc: usdcRefundDue,
        refundTx: landedAs,
        refundRaw: null,
        lockedUntil: null,
        updatedAt: new Date(),
      })
      .where(mine())
      .returning({ id: orders.id });
    if (done.length === 0) return null;
    logFor({ invoice_id: r.invoiceId }).info(
      { network, transaction: landedAs, orders: done.length, amount_usdc_atomic: r.amountUsdc.toString() },
      "refund paid",
    );
    return { invoiceId: r.invoiceId, orders: done.length, amountUsdc: r.amountUsdc, tx: landedAs };
  }
  if (status === "failed" || status === "dead") {
    logFor({ invoice_id: r.invoiceId }).warn({ network, transaction: landedAs, status }, "a refund transfer cannot land: a new one is made");
    await db
      .update(orders)
      .set({
        refundTx: null,
        refundRaw: null,
        refundExpiry: null,
        refundSuperseded: null,
        lockedUntil: null,
        lastError: `refund: the transfer ${landedAs} ${status === "failed" ? "failed on chain" : "can no longer land"}; a new one is made`,
      })
      .where(mine());
    return null;
  }
  await later(`refund: ${stored.transaction} was sent and is not confirmed yet`);
  return null;
}

class NotStored extends Error {}

const sum = (rows: { priceUsdc: bigint }[]) => rows.reduce((s, o) => s + o.priceUsdc, 0n);

/**
 * What a failed order's refund pays in USDC: its price, less what went back to the gift card that paid part of its
 * invoice (orders.refund_gift_card_cents, set when it failed).
 */
export const usdcRefundDue = sql<bigint>`(${orders.priceUsdc} - coalesce(${orders.refundGiftCardCents}, 0) * ${sql.raw(String(USDC_PER_CENT))})`.mapWith(
  orders.priceUsdc,
);

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
 * Refunds every paid invoice that has failed orders waiting (or a stored transfer to follow), one transfer per
 * invoice. A payout that fails is recorded on its orders and retried later; the others still go out. Throws the
 * first failure at the end.
 */
export async function refundDue(db: Db, payout: Payout, opts: { now?: Date; limit?: number } = {}): Promise<Refund[]> {
  const now = opts.now ?? new Date();
  const due = await db
    .selectDistinct({ invoiceId: orders.invoiceId })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(and(or(refundable(now), inFlight(now)), isNotNull(invoices.paidAt)))
    .limit(opts.limit ?? 20);
  const refunds: Refund[] = [];
  const errors: unknown[] = [];
  for (const { invoiceId } of due) {
    // A stopping server starts no new refund (the next start or another server takes it at once).
    if (isShuttingDown()) break;
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

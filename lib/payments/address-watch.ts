import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Address, Hex, PublicClient } from "viem";
import type { Db } from "@/lib/platform/db";
import { goneLongEnough, heldBy, notHeld, type ClaimScope } from "@/lib/platform/db/claim";
import { claimHolder } from "@/lib/platform/db/presence";
import { chainWatchers, paymentAddresses } from "@/lib/platform/db/schema";
import { runAfterCommit } from "@/lib/platform/events";
import { errorText } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import type { EvmNetwork } from "@/lib/platform/networks";
import { parseMinorUnits } from "@/lib/platform/money";
import { flushCall, HOLDINGS_PER_CALL, readHoldingsAt, type ForwarderAsset, type Holding } from "./forwarders";

export type PaymentAddressRow = typeof paymentAddresses.$inferSelect;

/**
 * What the invoice side makes of an address's reading (lib/checkout): called in the transaction that records it,
 * whenever part of what the address received is not decided yet, or more is seen at the head than counted. It
 * answers how much of `received` it applied to the invoice and how much it credited on (over-paid, late, short at
 * expiry), each in total, and the work to run after the commit. Anything it leaves undecided is offered again next round.
 */
export type AddressEffect = {
  decide(tx: Db, row: PaymentAddressRow, now: Date): Promise<{ applied?: bigint; credited?: bigint; creditedCents?: bigint; after?: (() => void)[] }>;
};

/** An amount of the coin in US cents at an address's locked rate (US dollars per coin, decimal text), rounded down. */
export function coinToCents(row: { exchangeRate: string; decimals: number }, amount: bigint): bigint {
  const rate = parseMinorUnits(row.exchangeRate, 8);
  if (rate === undefined) throw new Error(`unreadable exchange rate ${row.exchangeRate}`);
  return (amount * rate * 100n) / (10n ** BigInt(row.decimals) * 10n ** 8n);
}

/** Sends a transaction from one of the shop's gas wallets (nonces under the database's lock); its hash once the node took it. */
export type GasSender = (call: { to: Address; data: Hex }) => Promise<Hex>;

/** A round holds its network this long (a round reads and records in well under it; a dead server's hold lapses). */
const WATCH_LEASE_MS = 30_000;
/** A flush sent and not yet seen at depth is sent again after this (sending it twice is harmless: the second moves nothing). */
export const FLUSH_RETRY_MS = 2 * 60_000;
/**
 * After an address's first flush (the invoice's payment), what arrives later is flushed once it is worth this much:
 * a flush costs the shop gas, and a payer who sends dust again and again would otherwise make the shop pay one flush
 * per dust transfer. The funds stay at the forwarder meanwhile (counted and credited; only payTo can ever get them).
 */
export const FLUSH_MIN_CENTS = 100n;
/** An address holding funds and flushed this long ago without effect is stuck: readiness reports it. */
export const FLUSH_STUCK_MS = 10 * 60_000;
/** An address with undecided funds or funds to flush is watched at least this much longer. */
const KEEP_WATCHING_MS = 24 * 60 * 60_000;

export type WatchReport = {
  network: string;
  /** False when another server held this network's round. */
  ran: boolean;
  head?: bigint;
  /** The block read at the network's depth. */
  block?: bigint;
  /** Solana: the newest transaction read (the next round reads those after it). */
  cursor?: string;
  addresses: number;
  /** Addresses whose counted amount grew this round. */
  received: number;
  flushes: number;
  rpcCalls: number;
};

/**
 * One round of one network's address watcher, safe to run on several servers (one holds the round, the others skip):
 * 1. The open addresses are read at two blocks, the head and the block at the network's depth (`head - depth + 1`),
 *    a few hundred addresses per call, whatever their number of payments: what each holds plus what it flushed is
 *    what it received, so ether that arrived through a contract's internal call counts as a plain transfer does, and
 *    several payments add up. What shows at the head is only "seen" (it may be reorganized away); what shows at depth
 *    counts.
 * 2. Each address whose count grew, or that holds an undecided part, is recorded with the effect's decision in one
 *    transaction, conditional on the count it replaces: a crash before the commit leaves nothing, and the next round
 *    (here or on another server) reads the chain again and decides the same.
 * 3. An address whose funds are all decided and that still holds some at depth is flushed to payTo: recorded first,
 *    sent by the gas wallet, sent again only if it still holds them FLUSH_RETRY_MS later. A flush moves funds only to
 *    payTo, so a second one is harmless.
 * The depth block read last is stored: the next round (after a restart too) reads from the chain's state at its own
 * depth, which holds everything that arrived meanwhile.
 */
export async function watchAddresses(
  db: Db,
  n: EvmNetwork,
  opts: { client: PublicClient; effect: AddressEffect; send?: GasSender; now?: Date },
): Promise<WatchReport> {
  return leasedRound(db, n.network, opts.now ?? new Date(), (report, now) => round(db, n, opts, now, report));
}

/**
 * Runs `run` as the network's watcher round if no other round holds the network (`chain_watchers`, a lease that a
 * dead server's round lets lapse), then hands it back with the round's outcome (its error for readiness, the blocks
 * it read). A round that outlived its lease and was taken over hands back nothing.
 */
export async function leasedRound(db: Db, network: string, now: Date, run: (report: WatchReport, now: Date) => Promise<void>): Promise<WatchReport> {
  const report: WatchReport = { network, ran: false, addresses: 0, received: 0, flushes: 0, rpcCalls: 0 };
  await db.insert(chainWatchers).values({ network }).onConflictDoNothing();
  const [lease] = await db
    .update(chainWatchers)
    .set({ lockedUntil: new Date(now.getTime() + WATCH_LEASE_MS), lockedBy: claimHolder() })
    .where(and(eq(chainWatchers.network, network), notHeld(chainWatchers.lockedUntil, now)))
    .returning({ block: chainWatchers.block });
  if (!lease) return report;
  report.ran = true;
  let failure: unknown;
  try {
    await run(report, now);
  } catch (err) {
    failure = err;
  }
  await db
    .update(chainWatchers)
    .set({
      lockedUntil: null,
      lockedBy: null,
      updatedAt: new Date(),
      lastError: failure === undefined ? null : errorText(failure).slice(0, 500),
      ...(report.block !== undefined ? { block: report.block, head: report.head } : {}),
      ...(report.cursor !== undefined ? { cursor: report.cursor } : {}),
    })
    .where(and(eq(chainWatchers.network, network), heldByMe(chainWatchers.lockedBy)));
  if (failure !== undefined) throw failure;
  return report;
}

/** Rows held by this process (a process without a presence holds as null). */
const heldByMe = (column: typeof chainWatchers.lockedBy) => {
  const holder = claimHolder();
  return holder === null ? isNull(column) : eq(column, holder);
};

/**
 * Writes what the effect decided of an address's count (in the transaction that recorded it): what paid the
 * invoice and what went on as extra, never more than it received, never less than was decided before.
 */
export async function applyDecision(tx: Db, row: PaymentAddressRow, decided: Awaited<ReturnType<AddressEffect["decide"]>>): Promise<void> {
  if (decided.applied === undefined && decided.credited === undefined) return;
  const applied = decided.applied ?? row.applied;
  const credited = decided.credited ?? row.credited;
  if (applied + credited > row.received || applied < row.applied || credited < row.credited) {
    throw new Error(`address ${row.address}: decided ${applied} + ${credited} of ${row.received} received (was ${row.applied} + ${row.credited})`);
  }
  await tx
    .update(paymentAddresses)
    .set({ applied, credited, creditedCents: decided.creditedCents ?? row.creditedCents })
    .where(and(eq(paymentAddresses.network, row.network), eq(paymentAddresses.address, row.address)));
}

async function round(db: Db, n: EvmNetwork, opts: { client: PublicClient; effect: AddressEffect; send?: GasSender }, now: Date, report: WatchReport) {
  const rows = await db
    .select()
    .from(paymentAddresses)
    .where(and(eq(paymentAddresses.network, n.network), gt(paymentAddresses.watchUntil, now)));
  report.addresses = rows.length;
  if (rows.length === 0) return;
  const head = await opts.client.getBlockNumber({ cacheTime: 0 });
  report.rpcCalls++;
  const depth = BigInt(Math.max(1, n.confirmations ?? 1));
  const block = head - depth + 1n;
  if (block < 0n) return;
  report.head = head;
  report.block = block;

  // Read by asset, at the depth block and at the head.
  const byAsset = new Map<string, PaymentAddressRow[]>();
  for (const r of rows) {
    const group = byAsset.get(r.asset);
    if (group) group.push(r);
    else byAsset.set(r.asset, [r]);
  }
  const atDepth = new Map<PaymentAddressRow, Holding>();
  const atHead = new Map<PaymentAddressRow, Holding>();
  for (const [asset, group] of byAsset) {
    const addresses = group.map((r) => r.address as Address);
    const [deep, top] = (await readHoldingsAt(opts.client, addresses, asset as ForwarderAsset, [block, head])) as [Holding[], Holding[]];
    report.rpcCalls += 2 * Math.ceil(addresses.length / HOLDINGS_PER_CALL);
    group.forEach((r, i) => {
      atDepth.set(r, deep[i]!);
      atHead.set(r, top[i]!);
    });
  }

  for (const r of rows) {
    const deep = atDepth.get(r)!;
    const top = atHead.get(r)!;
    const received = deep.held + deep.flushed;
    const seen = top.held + top.flushed;
    if (received < r.received) {
      // Counted at depth, then gone: a reorganization deeper than the network's depth. What was decided stands.
      log.error(
        { network: n.network, address: r.address, counted: String(r.received), now: String(received) },
        "a payment counted at depth is no longer on the chain",
      );
      continue;
    }
    const grew = received > r.received;
    const undecided = received - r.applied - r.credited > 0n;
    const seenChanged = seen !== r.seen;
    const pending = seen > received && r.applied === 0n && seen >= r.amountDue;
    if (!grew && !undecided && !seenChanged && !pending && deep.held === r.held) continue;
    const seenBlock = seen > received ? (seenChanged ? head : r.seenBlock) : null;
    const after = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentAddresses)
        .set({
          received,
          held: deep.held,
          seen,
          seenBlock,
          checkedBlock: block,
          updatedAt: now,
          ...(grew || undecided || deep.held > 0n
            ? { watchUntil: sql`greatest(${paymentAddresses.watchUntil}, ${new Date(now.getTime() + KEEP_WATCHING_MS)})` }
            : {}),
        })
        .where(and(eq(paymentAddresses.network, r.network), eq(paymentAddresses.address, r.address), eq(paymentAddresses.received, r.received)))
        .returning();
      if (!row) return [];
      if (!(row.received - row.applied - row.credited > 0n) && !pending && !seenChanged) return [];
      const decided = await opts.effect.decide(tx as unknown as Db, row, now);
      await applyDecision(tx as unknown as Db, row, decided);
      return decided.after ?? [];
    });
    if (grew) report.received++;
    runAfterCommit(after);
  }

  if (opts.send) report.flushes = await flushDecided(db, n, opts.send, now);
}

/**
 * Sends a flush for every address of the network whose funds are all decided and that held some at depth (after its
 * first flush, at least FLUSH_MIN_CENTS' worth), unless one was sent less than FLUSH_RETRY_MS ago. The send is recorded before it goes (a conditional update: of two servers
 * one sends), so a crash after it leaves at most a flush sent and not recorded, sent again later to no effect.
 */
async function flushDecided(db: Db, n: EvmNetwork, send: GasSender, now: Date): Promise<number> {
  const due = await db
    .select()
    .from(paymentAddresses)
    .where(
      and(
        eq(paymentAddresses.network, n.network),
        gt(paymentAddresses.held, sql`0`),
        sql`${paymentAddresses.applied} + ${paymentAddresses.credited} = ${paymentAddresses.received}`,
        or(isNull(paymentAddresses.flushSentAt), lt(paymentAddresses.flushSentAt, new Date(now.getTime() - FLUSH_RETRY_MS))),
      ),
    );
  let sent = 0;
  // The first flush of an address always goes; later ones once what it holds is worth a flush (FLUSH_MIN_CENTS).
  for (const r of due.filter((d) => d.flushTx === null || coinToCents(d, d.held) >= FLUSH_MIN_CENTS)) {
    const [mine] = await db
      .update(paymentAddresses)
      .set({ flushSentAt: now })
      .where(
        and(
          eq(paymentAddresses.network, r.network),
          eq(paymentAddresses.address, r.address),
          r.flushSentAt === null ? isNull(paymentAddresses.flushSentAt) : eq(paymentAddresses.flushSentAt, r.flushSentAt),
        ),
      )
      .returning({ address: paymentAddresses.address });
    if (!mine) continue;
    try {
      const hash = await send(flushCall(r.payTo as Address, r.salt as Hex, [r.asset as ForwarderAsset]));
      await db
        .update(paymentAddresses)
        .set({ flushTx: hash })
        .where(and(eq(paymentAddresses.network, r.network), eq(paymentAddresses.address, r.address)));
      sent++;
    } catch (err) {
      log.warn({ err: errorText(err), network: n.network, address: r.address }, "the flush of a payment address was not sent: tried again later");
    }
  }
  return sent;
}

/**
 * What the operator must look at in the address payments (readiness warnings, `/operator`): addresses whose flush has
 * not moved their funds FLUSH_STUCK_MS after it was sent (a gas wallet out of ether, a node refusing it), and
 * networks whose last watcher round failed (their payments are not being counted).
 */
export async function addressWarnings(db: Db, now = new Date()): Promise<string[]> {
  const warnings: string[] = [];
  const stuck = await db
    .select()
    .from(paymentAddresses)
    .where(and(gt(paymentAddresses.held, sql`0`), lt(paymentAddresses.flushSentAt, new Date(now.getTime() - FLUSH_STUCK_MS))))
    .orderBy(paymentAddresses.flushSentAt)
    .limit(100);
  const oldest = stuck[0];
  if (oldest) {
    warnings.push(
      `${stuck.length === 100 ? "100 or more" : stuck.length} payment address(es) still hold funds long after their flush was sent; the oldest: ${oldest.address} on ${oldest.network} ` +
        `(invoice ${oldest.invoiceId}, flush ${oldest.flushTx ?? "not sent"} at ${oldest.flushSentAt?.toISOString()}). Check the gas wallet's ether and the transaction on an explorer`,
    );
  }
  const failing = await db
    .select()
    .from(chainWatchers)
    .where(sql`${chainWatchers.lastError} IS NOT NULL`);
  for (const w of failing)
    warnings.push(`payment addresses on ${w.network}: the last round failed (${w.lastError}); payments to them are not counted meanwhile`);
  return warnings;
}

/**
 * Frees the watcher rounds of `scope` (as the other claims are handed back, lib/server/hand-back.ts): a round held by
 * a process that was killed would keep its network unread until its lease lapsed. Redoing a round is safe: it reads
 * the chain again and records only what changed. Returns the networks freed.
 */
export async function releaseWatchers(db: Db, scope: ClaimScope, opts: { now?: Date; graceMs?: number } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const held = and(gt(chainWatchers.lockedUntil, now), heldBy(chainWatchers.lockedBy, scope));
  let networks: string[] | undefined;
  if (scope === "dead") {
    const found = await db.select({ id: chainWatchers.network, holder: chainWatchers.lockedBy }).from(chainWatchers).where(held);
    networks = goneLongEnough(db, "watchers", found, now, opts.graceMs ?? 0);
    if (networks.length === 0) return [];
  }
  const freed = await db
    .update(chainWatchers)
    .set({ lockedUntil: null, lockedBy: null })
    .where(networks ? and(held, inArray(chainWatchers.network, networks)) : held)
    .returning({ network: chainWatchers.network });
  return freed.map((w) => w.network);
}

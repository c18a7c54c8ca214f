import { AsyncLocalStorage } from "node:async_hooks";
import type { FacilitatorEvmSigner } from "@x402/evm";
import {
  concat,
  createPublicClient,
  encodeFunctionData,
  hashTypedData,
  http,
  HttpRequestError,
  keccak256,
  RpcRequestError,
  TimeoutError,
  type Abi,
  type Address,
  type Hex,
  type LocalAccount,
} from "viem";
import { viemChain } from "./chain";
import { receiptWatcher, TransactionDroppedError } from "./receipts";
import { rpcFetch } from "./rpc-fetch";
import type { EvmNetwork } from "@/lib/platform/networks";

/** Runs `work` holding the lock named `key`, in this process and across servers (see lib/platform/db/key-lock.ts). */
export type KeyLock = <T>(key: string, work: () => Promise<T>) => Promise<T>;

/** The next nonce of each sending wallet as the shop last recorded it, read and written under the wallet's lock. */
export type NonceStore = {
  get(key: string): Promise<{ next: number; updatedAt: Date } | undefined>;
  /** `undefined` forgets it: the next send asks the chain. */
  set(key: string, next: number | undefined): Promise<void>;
};

/** Wallets, their lock and their nonces: what several servers sending from one wallet share. */
export type SenderSync = { lock: KeyLock; nonces: NonceStore };

/** A recorded nonce older than this is checked against the chain (after a quiet while the chain's count is settled). */
const NONCE_FRESH_MS = 15_000;
/** An account's code is asked of the chain at most this often. */
const CODE_FRESH_MS = 5_000;
/** At most this many transactions of one wallet are sent under one hold of its lock (one JSON-RPC batch). */
const GROUP_MAX = 50;
/** A signature found valid is taken as valid again for this long (the settlement's own check right after verification). */
const VERIFIED_FRESH_MS = 60_000;
/** Fees are asked of the chain at most this often per network. */
const FEES_FRESH_MS = 2_000;

/**
 * What one settlement sent (`broadcasts.run({ sent: [] }, settle)`). `sent`: the hashes of its transactions, sent or
 * sent with an answer that left them unknown, replacements included; after a settlement that did not report success
 * they tell whether anything may still land, with its hash, even when the settle call itself threw. `landed`: the
 * hash that was mined when it is a replacement of the transaction the settlement asked for (the x402 library reports
 * the first hash). `dropped`: hashes taken out of `sent` because another transaction used their nonce, so that they
 * can never be mined. `mined`: the block of the receipt it waited for.
 */
export type Broadcasts = { sent: Hex[]; landed?: Hex; dropped?: Hex[]; onSent?: () => void; mined?: { blockNumber: bigint; blockHash: Hex } };
// On globalThis: a production build may hold this module once per route, and the facilitator that sends (made by
// whichever route asked first) must see the record of a settlement that another route's copy of exchange.ts started.
const globalForBroadcasts = globalThis as typeof globalThis & { __storefrontBroadcasts?: AsyncLocalStorage<Broadcasts> };
export const broadcasts = (globalForBroadcasts.__storefrontBroadcasts ??= new AsyncLocalStorage<Broadcasts>());

/**
 * The chain calls of one verification or settlement that got no answer from the node (`unanswered.run({ count: 0 }, …)`):
 * the x402 library reads a failed call as the payment's fault (a payer's code it could not read is an invalid
 * signature, a simulation it could not run a failed transfer), so the caller counts them here to tell the two apart.
 * Once a call went unanswered, the others of the same check fail at once instead of each waiting out its retries.
 */
export type Unanswered = { count: number; last?: unknown };
const globalForUnanswered = globalThis as typeof globalThis & { __storefrontUnanswered?: AsyncLocalStorage<Unanswered> };
export const unanswered = (globalForUnanswered.__storefrontUnanswered ??= new AsyncLocalStorage<Unanswered>());

/** A node's JSON-RPC codes for its own trouble (internal error, over its limits), not a verdict on the call. */
const NODE_TROUBLE_CODES = new Set([-32603, -32005, -32007, 429]);

/** The call got no verdict from the node: the request failed or timed out, or the node said it was in trouble. */
export function isUnanswered(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof HttpRequestError || e instanceof TimeoutError) return true;
    if (e instanceof RpcRequestError) return NODE_TROUBLE_CODES.has(e.code);
  }
  return false;
}

/** Counts a call that got no verdict from the node in the caller's `unanswered` record, if it keeps one. */
export function noteUnanswered(err: unknown): void {
  const record = unanswered.getStore();
  if (!record) return;
  record.count++;
  record.last = err;
}

/** Makes a chain call, its failure counted in the caller's `unanswered` record when the node gave no verdict. */
function counted<T>(call: () => Promise<T>): Promise<T> {
  const record = unanswered.getStore();
  if (record?.count) return Promise.reject(record.last);
  return call().catch((err: unknown) => {
    if (isUnanswered(err)) noteUnanswered(err);
    throw err;
  });
}

/** The lock and nonce record of one sending wallet on one network (gas wallets and refund wallets alike). */
export const nonceKey = (network: string, address: Address) => `evm-nonce:${network}:${address.toLowerCase()}`;

/** A node's refusal that says the nonce was taken meanwhile (by another server, or a transaction the node knows). */
const NONCE_TAKEN = /nonce too low|nonce has already been used|already been used|replacement transaction underpriced|nonce.*(expired|low)|NONCE_EXPIRED/i;
const ALREADY_KNOWN = /already known|already imported|known transaction/i;
/** A refusal for a fee below what the chain takes now (its base fee rose). */
const FEE_TOO_LOW = /fee cap|base fee|underpriced|max fee per gas less than/i;
/** A transaction is replaced at most this many times (each at least 12.5 % dearer). */
const MAX_REPLACEMENTS = 3;
/** A wallet's transaction still unmined this many blocks after it was sent makes the signer ask whether a nonce is missing. */
const GAP_SUSPECT_BLOCKS = 2;
/**
 * Blocks for which a missing nonce must stay missing before it is filled: with the transaction this server sent at it
 * (its bytes as they were signed), or with an empty one when it has none, later (another server sharing the wallet
 * may hold that transaction and send it again first).
 */
const GAP_RESEND_BLOCKS = 1;
const GAP_FILL_BLOCKS = 2;

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
/** What a transaction of a gas wallet does and pays, its nonce aside. */
type Tx = { to: Address; data: Hex; gas: bigint; fees: Fees };

/** A transaction waiting for its wallet's lock, with the settlement that asked for it. */
type Queued = Tx & {
  /** The asking settlement's `broadcasts` record (the group is sent from another async context). */
  sent: Broadcasts | undefined;
  resolve(hash: Hex): void;
  reject(err: unknown): void;
};

export type ManagedEvmSignerOptions = {
  /** Receipt wait of one settlement before it is reported pending. */
  confirmationTimeoutMs: number;
  pollingIntervalMs?: number;
  /** A sent transaction not mined after this long is sent again at a higher fee (same nonce). Default 12 s. */
  stuckAfterMs?: number;
};

/**
 * The facilitator's EVM signer with its own nonce management. Every transaction is signed here with a nonce taken
 * under a lock per (network, gas wallet): the lock spans only "take the next nonce, sign, send, record the next one",
 * so concurrent settlements on one server and on several servers sharing the database never take the same nonce.
 * Transactions waiting for the lock go together: one hold signs and sends all of them (group commit), so that a
 * burst of payments costs a few holds, not one each. A nonce is only recorded as used once the node accepted its
 * transaction: a transaction the node refused leaves no gap, one whose answer was lost makes the next send ask the
 * chain (its pending count tells whether it arrived), and a nonce some other sender took meanwhile is refused by the
 * node and taken again from the chain. Gas and fees are estimated before the lock, so the lock is held for a few
 * milliseconds. With several gas wallets, each settlement goes to the one with the fewest transactions in flight.
 * A nonce the node does not have below the wallet's later transactions (one it dropped from its pool, or a chain
 * restarted from an older state forgot) would hold all of them back: it is filled within a few blocks (`onBlock`).
 */
export function managedEvmSigner(
  n: EvmNetwork,
  accounts: readonly LocalAccount[],
  sync: SenderSync,
  opts: ManagedEvmSignerOptions,
): FacilitatorEvmSigner & { wasDropped(hash: string): boolean } {
  if (accounts.length === 0) throw new Error(`No gas wallet for ${n.network}`);
  const chain = viemChain(n);
  // Calls made in the same turn of the event loop travel in one JSON-RPC batch: under a burst of payments the
  // verifications, estimates, sends and receipt polls of many settlements share HTTP requests.
  const client = createPublicClient({
    chain,
    transport: http(n.rpcUrl, { batch: { batchSize: GROUP_MAX * 2 }, fetchFn: rpcFetch }),
    pollingInterval: opts.pollingIntervalMs ?? 250,
  });
  // One poll for the receipts of all the settlements waiting on this network (a batch of receipts per new block).
  const receipts = receiptWatcher(client, { pollingIntervalMs: opts.pollingIntervalMs ?? 250, onBlock: () => onBlock() });
  const inFlight = new Map<Address, number>(accounts.map((a) => [a.address, 0]));
  let turn = 0;
  let fees: { at: number; value: Promise<Fees> } | undefined;
  const currentFees = () => {
    if (!fees || Date.now() - fees.at > FEES_FRESH_MS) {
      const value = client.estimateFeesPerGas();
      fees = { at: Date.now(), value };
      value.catch(() => (fees = undefined));
    }
    return fees.value;
  };

  // A payment's verification asks for the payer's code twice, and settlement verifies again: one answer serves them
  // for a few seconds (the chain still decides the transfer; this only picks how the signature is checked).
  const codes = new Map<string, { at: number; value: Promise<Hex | undefined> }>();
  const code = (address: Address): Promise<Hex | undefined> => {
    const key = address.toLowerCase();
    const now = Date.now();
    const known = codes.get(key);
    if (known && now - known.at < CODE_FRESH_MS) return known.value;
    if (codes.size > 10_000) for (const [k, v] of codes) if (now - v.at >= CODE_FRESH_MS) codes.delete(k);
    const value = client.getCode({ address });
    codes.set(key, { at: now, value });
    value.catch(() => codes.delete(key));
    return value;
  };

  // A payment is verified before it is recorded, and settlement verifies it again: the second check of the same
  // signature over the same typed data (one hash) by the same address reuses the first one's answer for a moment,
  // instead of recovering the key again (about 1.4 ms of CPU each). Only valid answers are kept.
  const verifications = new Map<string, { at: number; value: Promise<boolean> }>();
  const verified = (args: Parameters<typeof client.verifyTypedData>[0]): Promise<boolean> => {
    const now = Date.now();
    let key: string;
    try {
      if (typeof args.signature !== "string") throw new TypeError("a signature in bytes or parts is checked as it is");
      key = `${args.address.toLowerCase()} ${hashTypedData(args as Parameters<typeof hashTypedData>[0])} ${args.signature.toLowerCase()}`;
    } catch {
      return counted(() => client.verifyTypedData(args));
    }
    const known = verifications.get(key);
    if (known && now - known.at < VERIFIED_FRESH_MS) return known.value;
    if (verifications.size > 10_000) for (const [k, v] of verifications) if (now - v.at >= VERIFIED_FRESH_MS) verifications.delete(k);
    const value = counted(() => client.verifyTypedData(args));
    verifications.set(key, { at: now, value });
    value.then(
      (ok) => (ok ? undefined : verifications.delete(key)),
      () => verifications.delete(key),
    );
    return value;
  };

  const pick = (): LocalAccount => {
    turn = (turn + 1) % accounts.length;
    let best = accounts[turn]!;
    for (const a of accounts) if ((inFlight.get(a.address) ?? 0) < (inFlight.get(best.address) ?? 0)) best = a;
    return best;
  };

  /** Transactions waiting for their wallet's lock, and the wallets whose queue is being sent. */
  const queues = new Map<Address, Queued[]>();
  const draining = new Set<Address>();

  async function send(request: { to: Address; data: Hex; gas?: bigint }): Promise<Hex> {
    const account = pick();
    inFlight.set(account.address, (inFlight.get(account.address) ?? 0) + 1);
    try {
      // Estimated first (this simulates the call): a transfer that would revert is refused here, with nothing sent.
      const [gas, fees] = await Promise.all([request.gas ?? client.estimateGas({ account, to: request.to, data: request.data }), currentFees()]);
      return await new Promise<Hex>((resolve, reject) => {
        const queue = queues.get(account.address) ?? [];
        queues.set(account.address, queue);
        queue.push({ to: request.to, data: request.data, gas: (gas * 12n) / 10n, fees, sent: broadcasts.getStore(), resolve, reject });
        if (!draining.has(account.address)) void drain(account);
      });
    } finally {
      inFlight.set(account.address, (inFlight.get(account.address) ?? 1) - 1);
    }
  }

  /**
   * Sends what is queued for one wallet, a group at a time, each group under one hold of the wallet's lock: under a
   * burst the lock, the nonce record and the broadcast are paid once per group instead of once per transaction.
   */
  async function drain(account: LocalAccount): Promise<void> {
    draining.add(account.address);
    try {
      for (let queue = queues.get(account.address); queue && queue.length > 0; queue = queues.get(account.address)) {
        const group = queue.splice(0, GROUP_MAX);
        await sync
          .lock(nonceKey(n.network, account.address), () => sendGroup(account, group))
          .catch((err: unknown) => {
            for (const q of group) q.reject(err);
          });
      }
    } finally {
      draining.delete(account.address);
    }
  }

  const chainNonce = (account: LocalAccount) => client.getTransactionCount({ address: account.address, blockTag: "pending" });

  /**
   * Signs a group with consecutive nonces, broadcasts it (one JSON-RPC batch) and records the next nonce. Each
   * transaction's answer is its own: accepted (its settlement goes on), refused (not in the node: that settlement is
   * told), refused because its nonce was taken meanwhile (signed again above the chain's count), or unknown (it may
   * have arrived: the next group asks the chain). A refused nonce below an accepted one is a gap that would hold the
   * accepted ones back: it is filled at once with an empty transfer to the wallet itself, or else recorded as the next
   * nonce, so that the next transaction fills it.
   */
  async function sendGroup(account: LocalAccount, group: Queued[]): Promise<void> {
    const key = nonceKey(n.network, account.address);
    const recorded = await sync.nonces.get(key);
    let nonce = recorded && Date.now() - recorded.updatedAt.getTime() < NONCE_FRESH_MS ? recorded.next : await chainNonce(account);
    let next = nonce;
    let unknown = false;
    const refused: number[] = [];
    let todo = group;
    for (let attempt = 0; todo.length > 0; attempt++) {
      const base = nonce;
      // No block seen before the broadcast holds its transactions: their receipts are looked for in later ones.
      const sentAfter = receipts.head();
      const answers = await broadcast(
        account,
        todo.map((q, i) => ({ ...q, nonce: base + i })),
      );
      const again: Queued[] = [];
      answers.forEach(({ hash, raw, outcome, err }, i) => {
        const q = todo[i]!;
        if (outcome !== "refused") {
          q.sent?.sent.push(hash);
          q.sent?.onSent?.();
        }
        if (outcome === "accepted") {
          next = Math.max(next, base + i + 1);
          track(account, base + i, q, hash, raw, sentAfter);
          q.resolve(hash);
        } else if (outcome === "unknown") {
          unknown = true;
          q.reject(err);
        } else if (NONCE_TAKEN.test(errorText(err)) && attempt < 3) {
          // Taken by a sender outside this lock: signed again above the chain's count, a few times at most.
          again.push(q);
        } else {
          if (NONCE_TAKEN.test(errorText(err))) unknown = true;
          else refused.push(base + i);
          // A fee the chain no longer takes: the next transaction asks for the fees again.
          if (FEE_TOO_LOW.test(errorText(err))) fees = undefined;
          q.reject(err);
        }
      });
      todo = again;
      if (todo.length > 0) nonce = await chainNonce(account);
    }
    let unfilled: number | undefined;
    for (const gap of refused.sort((a, b) => a - b)) {
      if (gap >= next) {
        unfilled ??= gap;
        continue;
      }
      const filler = await fill(account, gap);
      if (filler.outcome === "unknown") unknown = true;
      if (filler.outcome === "refused") unfilled ??= gap;
    }
    await sync.nonces.set(key, unknown ? undefined : (unfilled ?? next));
  }

  /** Sends an empty transfer of the wallet to itself at `nonce`, at the chain's current fees: it only takes the nonce. */
  async function fill(account: LocalAccount, nonce: number) {
    const [filler] = await broadcast(account, [{ to: account.address, data: "0x", gas: 21_000n, fees: await currentFees(), nonce }]);
    return filler!;
  }

  /** Signs transactions and sends them at once; each one's outcome. */
  async function broadcast(account: LocalAccount, txs: (Tx & { nonce: number })[]) {
    const signed = await Promise.all(
      txs.map((tx) =>
        account.signTransaction({
          chainId: n.chainId,
          type: "eip1559",
          to: tx.to,
          data: tx.data,
          gas: tx.gas,
          maxFeePerGas: tx.fees.maxFeePerGas,
          maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas,
          nonce: tx.nonce,
        }),
      ),
    );
    return sendSigned(signed);
  }

  /** Sends signed transactions at once; each one's outcome. */
  async function sendSigned(signed: Hex[]) {
    const answers = await Promise.allSettled(signed.map((serializedTransaction) => client.sendRawTransaction({ serializedTransaction })));
    return answers.map((answer, i) => {
      const raw = signed[i]!;
      const hash = keccak256(raw);
      if (answer.status === "fulfilled") return { hash, raw, outcome: "accepted" as const, err: undefined };
      const err: unknown = answer.reason;
      if (ALREADY_KNOWN.test(errorText(err))) return { hash, raw, outcome: "accepted" as const, err: undefined };
      return { hash, raw, outcome: isRefusal(err) ? ("refused" as const) : ("unknown" as const), err };
    });
  }

  // Sent transactions not known to be mined, per wallet and nonce: what a replacement signs again. `hashes`: the first
  // version's and its replacements'; `raw`: the last version as it was signed (what is sent again, unchanged, to a node
  // that lost it); `block`: the count of blocks seen when it was sent (see `onBlock`).
  type Unmined = Tx & {
    account: LocalAccount;
    nonce: number;
    hashes: Hex[];
    raw: Hex;
    block: number;
    sentAfter: bigint;
    sentAt: number;
    replaced: number;
    broadcast: Broadcasts | undefined;
  };
  const unmined = new Map<Address, Map<number, Unmined>>();
  const byHash = new Map<Hex, Unmined>();
  const stuckAfterMs = opts.stuckAfterMs ?? 12_000;

  function track(account: LocalAccount, nonce: number, q: Queued, hash: Hex, raw: Hex, sentAfter: bigint) {
    const mine = unmined.get(account.address) ?? new Map<number, Unmined>();
    unmined.set(account.address, mine);
    const entry: Unmined = {
      to: q.to,
      data: q.data,
      gas: q.gas,
      fees: q.fees,
      account,
      nonce,
      hashes: [hash],
      raw,
      block: blocks,
      sentAfter,
      sentAt: Date.now(),
      replaced: 0,
      broadcast: q.sent,
    };
    const earlier = mine.get(nonce);
    if (earlier) forget(earlier);
    // Entries leave when their wait sees them mined; one whose wait gave up is kept a while for later waits to unstick.
    if (mine.size >= 1_000) for (const e of [...mine.values()]) if (entry.sentAt - e.sentAt > 10 * 60_000) forget(e);
    mine.set(nonce, entry);
    byHash.set(hash, entry);
  }

  function forget(entry: Unmined) {
    if (unmined.get(entry.account.address)?.get(entry.nonce) === entry) unmined.get(entry.account.address)!.delete(entry.nonce);
    for (const hash of entry.hashes) byHash.delete(hash);
  }

  /** Hashes of transactions that lost their nonce to another transaction: they can never be mined. */
  const dropped = new Set<Hex>();

  const unsticking = new Set<Address>();
  /**
   * Sends again, at a higher fee, the wallet's transactions that are not mined after `stuckAfterMs` (a base fee that
   * rose above their cap keeps them out of every block, and every later nonce of the wallet behind them). Same nonce,
   * same call: whichever of the versions is mined, the transfer happens once.
   */
  async function unstick(account: LocalAccount): Promise<void> {
    const mine = unmined.get(account.address);
    if (!mine?.size || unsticking.has(account.address)) return;
    unsticking.add(account.address);
    try {
      const mined = await client.getTransactionCount({ address: account.address, blockTag: "latest" });
      for (const entry of [...mine.values()]) if (entry.nonce < mined) forget(entry);
      const now = Date.now();
      const stuck = [...mine.values()].filter((e) => now - e.sentAt >= stuckAfterMs && e.replaced < MAX_REPLACEMENTS).sort((a, b) => a.nonce - b.nonce);
      await replace(account, stuck);
    } finally {
      unsticking.delete(account.address);
    }
  }

  /** Sends `stuck` again at the chain's current fees and at least 12.5 % above their last: new versions of each. */
  async function replace(account: LocalAccount, stuck: Unmined[]): Promise<void> {
    if (stuck.length === 0) return;
    fees = undefined;
    const current = await currentFees();
    const dearer = stuck.map((e) => ({ ...e, fees: replacementFees(e.fees, current) }));
    const answers = await broadcast(account, dearer);
    answers.forEach(({ hash, raw, outcome, err }, i) => {
      const entry = stuck[i]!;
      if (outcome === "refused") {
        if (NONCE_TAKEN.test(errorText(err))) forget(entry);
        return;
      }
      entry.fees = dearer[i]!.fees;
      entry.raw = raw;
      entry.sentAt = Date.now();
      entry.replaced++;
      entry.broadcast?.sent.push(hash);
      entry.hashes.push(hash);
      byHash.set(hash, entry);
    });
  }

  // Blocks seen by the receipt watcher (counted, not numbered: a chain that went back reuses numbers), and per wallet
  // the missing nonce last seen and the count of blocks at which it was first seen missing.
  let blocks = 0;
  const gaps = new Map<Address, { nonce: number; since: number }>();
  const gapChecking = new Set<Address>();

  /**
   * At each new block: a wallet with a transaction still unmined a couple of blocks after it was sent may be waiting
   * behind a nonce the node does not have (a transaction it dropped from its pool, or that a chain restarted from an
   * older state forgot, while the shop's recorded next nonce is past it). Only then is the node asked: a healthy burst
   * has its transactions mined in the next block and costs no call here.
   */
  function onBlock() {
    blocks++;
    for (const account of accounts) {
      const mine = unmined.get(account.address);
      if (!mine?.size || gapChecking.has(account.address)) continue;
      if (![...mine.values()].some((e) => blocks - e.block >= GAP_SUSPECT_BLOCKS)) continue;
      gapChecking.add(account.address);
      void checkGap(account)
        .catch(() => undefined)
        .finally(() => gapChecking.delete(account.address));
    }
  }

  /**
   * Whether the node's pending count of the wallet (its mined transactions and the ones in its pool that can go next)
   * stops below a transaction the wallet sent: the nonce it stops at is missing, and every later transaction waits
   * for it. Once the same nonce stays missing for a block or two it is filled, under the wallet's lock (`fillGap`).
   */
  async function checkGap(account: LocalAccount): Promise<void> {
    const mine = unmined.get(account.address);
    if (!mine) return;
    const [mined, pending] = await Promise.all([
      client.getTransactionCount({ address: account.address, blockTag: "latest" }),
      client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    ]);
    // Transactions mined meanwhile whose wait has not ended (or gave up) are no longer outstanding.
    for (const entry of [...mine.values()]) if (entry.nonce < mined) forget(entry);
    const highest = Math.max(-1, ...mine.keys());
    if (pending > highest) {
      gaps.delete(account.address);
      return;
    }
    const seen = gaps.get(account.address);
    if (seen?.nonce !== pending) {
      gaps.set(account.address, { nonce: pending, since: blocks });
      return;
    }
    if (blocks - seen.since < GAP_RESEND_BLOCKS) return;
    await sync.lock(nonceKey(n.network, account.address), () => fillGap(account, blocks - seen.since >= GAP_FILL_BLOCKS));
  }

  /**
   * Under the wallet's lock (no transaction of it is being sent meanwhile, by this server or another): sends again,
   * as they were signed, the wallet's transactions the node no longer has (their settlements wait for those hashes),
   * dearer if the chain's fees rose past them; then, with `withFillers`, takes each nonce still missing below the next
   * one the shop would hand out with an empty transfer, one at a time from the node's pending count, so that a
   * transaction another server parked above it is never replaced. A settlement whose transaction an empty one replaced
   * (its server lost it) is reported dropped by its wait, and the payment is sent again.
   */
  async function fillGap(account: LocalAccount, withFillers: boolean): Promise<void> {
    const mine = unmined.get(account.address) ?? new Map<number, Unmined>();
    const recorded = await sync.nonces.get(nonceKey(n.network, account.address));
    let pending = await chainNonce(account);
    const lost = [...mine.values()].filter((e) => e.nonce >= pending).sort((a, b) => a.nonce - b.nonce);
    const answers = await sendSigned(lost.map((e) => e.raw));
    await replace(
      account,
      lost.filter((e, i) => answers[i]!.outcome === "refused" && FEE_TOO_LOW.test(errorText(answers[i]!.err)) && e.replaced < MAX_REPLACEMENTS),
    );
    if (!withFillers) return;
    const next = Math.max(recorded?.next ?? 0, ...[...mine.keys()].map((nonce) => nonce + 1));
    fees = undefined;
    for (let filled = 0; filled < GROUP_MAX; filled++) {
      pending = await chainNonce(account);
      if (pending >= next || mine.has(pending)) return;
      if ((await fill(account, pending)).outcome !== "accepted") return;
    }
  }

  return {
    wasDropped: (hash) => dropped.has(hash as Hex),
    getAddresses: () => accounts.map((a) => a.address),
    readContract: (args) => counted(() => client.readContract(args as Parameters<typeof client.readContract>[0])),
    verifyTypedData: (args) => verified(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) =>
      send({
        to: args.address,
        data: concat([encodeFunctionData({ abi: args.abi as Abi, functionName: args.functionName, args: args.args }), args.dataSuffix ?? "0x"]),
        gas: args.gas,
      }),
    sendTransaction: (args) => send(args),
    waitForTransactionReceipt: async (args) => {
      const entry = byHash.get(args.hash);
      const settlement = broadcasts.getStore();
      // While it waits, a transaction that stays out of the blocks is sent again dearer; the wait takes whichever
      // version is mined.
      const check = entry ? setInterval(() => void unstick(entry.account).catch(() => undefined), Math.max(250, stuckAfterMs / 2)) : undefined;
      check?.unref();
      try {
        const watched = entry
          ? { hashes: () => entry.hashes, sender: { address: entry.account.address, nonce: entry.nonce }, sentAfter: entry.sentAfter }
          : { hashes: () => [args.hash] };
        const { receipt, hash } = await receipts.wait(watched, args.timeout ?? opts.confirmationTimeoutMs);
        if (settlement && hash !== args.hash) settlement.landed = hash;
        // Where it was mined: the settlement counts once that block is deep enough and still the chain's.
        if (settlement) settlement.mined = { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
        if (entry) forget(entry);
        return receipt;
      } catch (err) {
        if (entry && err instanceof TransactionDroppedError) {
          forget(entry);
          if (dropped.size >= 10_000) dropped.clear();
          for (const hash of entry.hashes) dropped.add(hash);
          // None of its versions can land: the settlement may send the payment again.
          if (settlement) {
            for (const hash of entry.hashes) {
              const at = settlement.sent.indexOf(hash);
              if (at >= 0) settlement.sent.splice(at, 1);
            }
            (settlement.dropped ??= []).push(...entry.hashes);
          }
        }
        throw err;
      } finally {
        clearInterval(check);
      }
    },
    // A code the node did not give is "none", counted as unanswered: the x402 library starts its check of the asset's
    // code before it knows it needs it and drops it on an early refusal, so a rejection there would go unhandled. The
    // refusal that follows is checked again by the caller (see `unanswered`).
    getCode: (args) => counted(() => code(args.address)).catch((err: unknown) => (isUnanswered(err) ? undefined : Promise.reject(err))),
  };
}

/** Fees for sending a transaction again: the chain's current ones, and at least 12.5 % above the last (what nodes ask). */
export function replacementFees(last: Fees, current: Fees): Fees {
  const bump = (x: bigint) => (x * 1125n + 999n) / 1000n + 1n;
  const maxPriorityFeePerGas = current.maxPriorityFeePerGas > bump(last.maxPriorityFeePerGas) ? current.maxPriorityFeePerGas : bump(last.maxPriorityFeePerGas);
  let maxFeePerGas = current.maxFeePerGas > bump(last.maxFeePerGas) ? current.maxFeePerGas : bump(last.maxFeePerGas);
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The node answered with a refusal: the transaction is not in it. Anything else (no answer, a timeout) may have reached it. */
function isRefusal(err: unknown): boolean {
  return err instanceof RpcRequestError || (hasCode(err) && !(err instanceof HttpRequestError) && !(err instanceof TimeoutError));
}

function hasCode(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RpcRequestError) return true;
    if (typeof (e as { code?: unknown }).code === "number") return true;
  }
  return false;
}

/** Everything an RPC error says, through its causes (viem and @solana/kit wrap the node's words), for matching. */
export function errorText(err: unknown): string {
  const parts: string[] = [];
  let depth = 0;
  for (let e: unknown = err; e instanceof Error && depth < 6; e = e.cause, depth++) {
    parts.push(
      e.message,
      (e as { details?: string }).details ?? "",
      JSON.stringify((e as { context?: unknown }).context ?? "", (_, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
    );
  }
  return parts.join(" ");
}

import {
  BaseError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  type Address,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { nonceUse } from "./nonce-proof";

/** A transaction waited for. */
export type Watched = {
  /** Its versions so far, the first one and the replacements sent since (read again at every check). */
  hashes(): readonly Hash[];
  /** Its sender and nonce, when known: once the chain has used that nonce without any version, none will be mined. */
  sender?: { address: Address; nonce: number };
  /** A block number seen before it was sent (`ReceiptWatcher.head()` then): no block up to it holds the transaction. */
  sentAfter?: bigint;
};

export type ReceiptWatcher = {
  /** The mined version's receipt and hash; rejects after `timeoutMs`, or when its nonce went to another transaction. */
  wait(tx: Watched, timeoutMs: number): Promise<{ receipt: TransactionReceipt; hash: Hash }>;
  /**
   * The highest block number seen so far (-1 before the first), or the chain's new head once it went back (restarted
   * from an older state, a deep reorg).
   */
  head(): bigint;
};

export type ReceiptWatcherOptions = {
  pollingIntervalMs: number;
  /**
   * Called once a new head is seen (while transactions are waited for), after the receipts of that block were asked:
   * the signer checks there, once a block and not once a transaction, that nothing of its wallets waits behind a gap.
   */
  onBlock?: (block: bigint) => void;
};

/** Its sender's nonce was used by a transaction that is none of its versions: it will never be mined. */
export class TransactionDroppedError extends BaseError {
  constructor(hash: Hash, nonce: number) {
    super(`Transaction "${hash}" will not be mined: its nonce ${nonce} was used by another transaction.`, { name: "TransactionDroppedError" });
  }
}

/** A head this many blocks below the last is taken for a lagging node, not for a chain that went back. */
const BEHIND_BLOCKS = 2n;

/**
 * A transaction is taken for dropped only on proof from the chain's blocks (see nonce-proof.ts): the block that used
 * its sender's nonce, this many blocks below the head, holds another transaction of that nonce. A receipt or a
 * look-up that says "not found" proves nothing (receipts and look-ups served late by one node, the nonce count by
 * another one ahead).
 */
export const DROP_NONCE_DEPTH = 3n;

type Waiter = Watched & {
  /** The highest block known not to hold any version yet. */
  checked: bigint;
  resolve(found: { receipt: TransactionReceipt; hash: Hash }): void;
  reject(err: unknown): void;
};

/**
 * Waits for the receipts of every transaction a signer sent with one poll per network, instead of one wait each: the
 * block number is asked every `pollingIntervalMs`, and on a new block the receipts of all the transactions still
 * waiting are asked together (the client's transport sends calls made at once in one JSON-RPC batch). A transaction
 * is looked for only in blocks that can hold it (after `sentAfter`), and only by its own hashes: a replacement the
 * signer sent counts (it is the same transfer), another transaction that took its nonce does not (it is reported
 * dropped, with nothing mined of it).
 */
export function receiptWatcher(client: PublicClient, opts: ReceiptWatcherOptions): ReceiptWatcher {
  const waiters = new Set<Waiter>();
  let head = -1n;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    if (timer || waiters.size === 0) return;
    timer = setTimeout(() => {
      void tick().finally(() => {
        timer = undefined;
        schedule();
      });
    }, opts.pollingIntervalMs);
  };

  /** Asks the receipts of every version of `due`; settles those found, and marks the rest checked up to `block`. */
  async function check(due: Waiter[], block: bigint): Promise<void> {
    const answers = await Promise.all(
      due.map((w) =>
        Promise.all(
          w.hashes().map((hash) =>
            client.getTransactionReceipt({ hash }).then(
              (receipt) => ({ hash, receipt, err: undefined }),
              (err: unknown) => ({ hash, receipt: undefined, err }),
            ),
          ),
        ),
      ),
    );
    due.forEach((w, i) => {
      const versions = answers[i]!;
      const mined = versions.find((v) => v.receipt);
      if (mined?.receipt) return settle(w, () => w.resolve({ receipt: mined.receipt, hash: mined.hash }));
      // A version the node did not answer for is asked again at the next poll.
      if (versions.every((v) => v.err instanceof TransactionReceiptNotFoundError) && w.checked < block) w.checked = block;
    });
  }

  async function tick(): Promise<void> {
    let block: bigint;
    try {
      block = await client.getBlockNumber({ cacheTime: 0 });
    } catch {
      return; // Asked again at the next poll.
    }
    // A block or two below the head is a node behind another one of the same URL: the head stays. Further below, the
    // chain went back (a node restarted from an older state, a deep reorg): the blocks after `block` are gone, and the
    // ones mined from now on reuse their numbers. Waits look for their transactions in those again.
    const back = block + BEHIND_BLOCKS < head;
    if (back) for (const w of waiters) if (w.checked >= block) w.checked = block - 1n;
    const moved = block > head || back;
    if (moved) head = block;
    try {
      await receiptsAt(block);
    } finally {
      if (moved) opts.onBlock?.(block);
    }
  }

  /** Settles the waits whose transaction `block` (or an earlier one) holds, and those whose nonce another transaction used. */
  async function receiptsAt(block: bigint): Promise<void> {
    const due = [...waiters].filter((w) => w.checked < block);
    if (due.length === 0) return;
    await check(due, block);

    // The senders' mined nonces, once per sender: a waiter whose nonce is used and whose versions have no receipt even
    // when asked after that was lost to another transaction.
    const left = due.filter((w) => waiters.has(w) && w.sender && w.checked >= block);
    const senders = [...new Set(left.map((w) => w.sender!.address))];
    if (block < DROP_NONCE_DEPTH) return;
    const at = block - DROP_NONCE_DEPTH;
    const counts = await Promise.all(senders.map((address) => client.getTransactionCount({ address, blockNumber: at }).catch(() => undefined)));
    const used = left.filter((w) => {
      const count = counts[senders.indexOf(w.sender!.address)];
      return count !== undefined && count > w.sender!.nonce;
    });
    if (used.length === 0) return;
    for (const w of used) w.checked = -1n;
    await check(used, block);
    // Still no receipt: the block that used the nonce tells. A version in it is mined (receipts indexed later, or another
    // node behind the same URL), its receipt asked again at the next block; another transaction there is the proof that
    // no version can be mined. A question not answered decides nothing.
    const unseen = used.filter((w) => waiters.has(w) && w.checked >= block);
    const uses = await Promise.all(unseen.map((w) => nonceUse(client, w.sender!.address, w.sender!.nonce, at).catch(() => undefined)));
    unseen.forEach((w, i) => {
      const use = uses[i];
      if (!use?.used || w.hashes().some((hash) => hash.toLowerCase() === use.by.toLowerCase())) return;
      settle(w, () => w.reject(new TransactionDroppedError(w.hashes()[0]!, w.sender!.nonce)));
    });
  }

  function settle(w: Waiter, outcome: () => void) {
    if (!waiters.delete(w)) return;
    outcome();
  }

  return {
    head: () => head,
    wait(tx, timeoutMs) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => settle(waiter, () => reject(new WaitForTransactionReceiptTimeoutError({ hash: tx.hashes()[0]! }))), timeoutMs);
        const waiter: Waiter = {
          ...tx,
          checked: tx.sentAfter ?? -1n,
          resolve: (found) => {
            clearTimeout(deadline);
            resolve(found);
          },
          reject: (err) => {
            clearTimeout(deadline);
            reject(err);
          },
        };
        waiters.add(waiter);
        schedule();
      });
    },
  };
}

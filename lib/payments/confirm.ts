import type { Hash } from "viem";
import type { EvmNetwork } from "@/lib/platform/networks";
import type { ExpectedTransfer } from "./transfer-proof";
import { paysShop, receiptOrNull, verdictClient } from "./verdict";

/** How often the head is asked while a payment's block deepens. */
const POLL_MS = 250;
/** A transaction reported settled that no block shows this many blocks on (past the depth) is not taken as mined. */
const UNSEEN_BLOCKS = 3n;

const heads = new Map<string, { at: number; value: bigint }>();
/** A recent head is read again at most this often; an older one still serves (it is only ever a lower bound). */
const HEAD_FRESH_MS = 2_000;

/**
 * A block number of the network seen before now: no transaction sent after this call can be in it or an earlier
 * block, so a payment's events are looked for from there. A head seen a while ago serves as well (it is older: the
 * search only starts earlier), so the chain is asked at most every few seconds per network; undefined when the node
 * never answered.
 */
export async function blockBeforeSending(n: EvmNetwork): Promise<bigint | undefined> {
  const key = `${n.network} ${n.rpcUrl}`;
  const known = heads.get(key);
  const ask = () =>
    verdictClient(n)
      .getBlockNumber({ cacheTime: 0 })
      .then((value) => {
        const now = heads.get(key);
        if (!now || value > now.value) heads.set(key, { at: Date.now(), value });
        return value;
      });
  if (known) {
    if (Date.now() - known.at > HEAD_FRESH_MS) {
      known.at = Date.now();
      void ask().catch(() => undefined);
    }
    return known.value;
  }
  return ask().catch(() => undefined);
}

/**
 * Waits until the transaction `hash` carries the expected transfer in a block at the network's depth
 * (`confirmations`), at most `timeoutMs`: "landed", or "unconfirmed" when it does not carry it, is not mined in time,
 * or was reorganized away and not mined again in time (the reconciler then decides from the chain). The head is read
 * before the receipt, so that a receipt read afterwards is from a chain at least that long.
 */
export async function confirmTransfer(n: EvmNetwork, expected: ExpectedTransfer, hash: Hash, timeoutMs: number): Promise<"landed" | "unconfirmed"> {
  const client = verdictClient(n);
  const depth = BigInt(n.confirmations ?? 1);
  const deadline = Date.now() + timeoutMs;
  // The block it was last seen mined in: gone from the chain that has grown past it, it was reorganized away.
  let minedIn: bigint | undefined;
  // The head when the wait began: a transaction said to be mined that no block shows a few blocks later never was.
  let firstHead: bigint | undefined;
  for (;;) {
    const seen = await (async () => {
      const head = await client.getBlockNumber({ cacheTime: POLL_MS });
      return { head, receipt: await receiptOrNull(client, hash) };
    })().catch(() => undefined);
    if (seen?.receipt) {
      if (!paysShop(seen.receipt, expected)) return "unconfirmed";
      if (seen.head - seen.receipt.blockNumber + 1n >= depth) return "landed";
      minedIn = seen.receipt.blockNumber;
    } else if (seen) {
      firstHead ??= seen.head;
      if (minedIn !== undefined ? seen.head - minedIn + 1n >= depth : seen.head - firstHead >= depth + UNSEEN_BLOCKS) return "unconfirmed";
    }
    if (Date.now() >= deadline) return "unconfirmed";
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const blocks = new Map<string, { at: number; hash: Promise<Hash> }>();
/** The hash of a block by its number; one answer serves every payment mined in that block for a moment. */
function blockHash(n: EvmNetwork, blockNumber: bigint): Promise<Hash> {
  const key = `${n.network} ${n.rpcUrl} ${blockNumber}`;
  const now = Date.now();
  const known = blocks.get(key);
  if (known && now - known.at < POLL_MS * 4) return known.hash;
  if (blocks.size > 1_000) for (const [k, v] of blocks) if (now - v.at >= POLL_MS * 4) blocks.delete(k);
  const hash = verdictClient(n)
    .getBlock({ blockNumber })
    .then((b) => b.hash!);
  hash.catch(() => blocks.delete(key));
  blocks.set(key, { at: now, hash });
  return hash;
}

/**
 * For a transfer this process saw mined (the in-process facilitator's receipt: its block's number and hash): waits
 * until that block is at the network's depth and checks that it is still the chain's block at that height, at most
 * `timeoutMs`. No receipt is asked again: one head poll and one block look-up serve every payment of the block.
 */
export async function confirmMined(n: EvmNetwork, mined: { blockNumber: bigint; blockHash: Hash }, timeoutMs: number): Promise<"landed" | "unconfirmed"> {
  const client = verdictClient(n);
  const depth = BigInt(n.confirmations ?? 1);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const head = await client.getBlockNumber({ cacheTime: POLL_MS }).catch(() => undefined);
    if (head !== undefined && head - mined.blockNumber + 1n >= depth) {
      const hash = await blockHash(n, mined.blockNumber).catch(() => undefined);
      if (hash !== undefined) return hash === mined.blockHash ? "landed" : "unconfirmed";
    }
    if (Date.now() >= deadline) return "unconfirmed";
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

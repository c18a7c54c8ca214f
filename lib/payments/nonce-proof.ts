import type { Address, Hash, PublicClient } from "viem";

/** What a block at the depth says of a sender's nonce: not used yet, or used by this transaction, in this block. */
export type NonceUse = { used: false } | { used: true; by: Hash; block: bigint };

/**
 * Which transaction used `sender`'s nonce `nonce` by block `by` (a block at the network's depth): the proof, from the
 * chain's own blocks, that a transaction of that nonce which is none of a transfer's versions was mined, so that no
 * version ever can be. Nothing else proves it: a receipt or a look-up that says "not found" only says that this node
 * does not serve it now (receipts indexed late, another node behind the URL). The block is the first after which the
 * sender's transaction count passes the nonce, looked for backwards from `by` by steps that double, then halved: a
 * nonce used a few blocks back takes a few questions, and only recent state is asked for (older state needs an archive
 * node; one that cannot serve it answers an error). Throws when a question is not answered, or when the block does not
 * show what its state says (an inconsistent node): no answer either way.
 */
export async function nonceUse(client: Pick<PublicClient, "getTransactionCount" | "getBlock">, sender: Address, nonce: number, by: bigint): Promise<NonceUse> {
  const usedBy = async (blockNumber: bigint) => (await client.getTransactionCount({ address: sender, blockNumber })) > nonce;
  if (by < 0n || !(await usedBy(by))) return { used: false };
  // `hi`: a block by which it was used; `lo`: one by which it was not (-1: before the first block).
  let hi = by;
  let lo = -1n;
  for (let step = 1n; hi > 0n; step *= 2n) {
    const at = by - step < 0n ? 0n : by - step;
    if (!(await usedBy(at))) {
      lo = at;
      break;
    }
    hi = at;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (await usedBy(mid)) hi = mid;
    else lo = mid;
  }
  const block = await client.getBlock({ blockNumber: hi, includeTransactions: true });
  const user = block.transactions.find((t) => t.from.toLowerCase() === sender.toLowerCase() && t.nonce === nonce);
  if (!user) throw new Error(`Block ${hi} does not hold the transaction of ${sender} with nonce ${nonce} that its state counts`);
  return { used: true, by: user.hash, block: hi };
}

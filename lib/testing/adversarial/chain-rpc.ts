import type { Hash } from "viem";

/**
 * Raw JSON-RPC to a local anvil chain, for the adversarial tests (test support): what the chain is made to do, and
 * what it holds, without the shop's clients in between.
 */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Stops mining: transactions wait in the pool until `mine` or `resumeMining`. */
export async function pauseMining(url: string): Promise<void> {
  await rpc(url, "evm_setIntervalMining", [0]);
  await rpc(url, "evm_setAutomine", [false]);
}

/** Mines a block every `seconds` again (the devnet's way). */
export async function resumeMining(url: string, seconds = 1): Promise<void> {
  await rpc(url, "evm_setIntervalMining", [seconds]);
}

/** Mines one block now (the pool's transactions ordered by tip, highest first). */
export async function mine(url: string): Promise<void> {
  await rpc(url, "evm_mine", []);
}

/** The hashes of the transactions waiting in the pool, from whichever senders. */
export async function pooled(url: string): Promise<Hash[]> {
  const content = await rpc<{ pending: Record<string, Record<string, { hash: Hash }>> }>(url, "txpool_content");
  return Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce).map((t) => t.hash));
}

/** Waits until the pool holds at least `count` transactions (the shop's sending, seen from the chain). */
export async function waitForPool(url: string, count: number, timeoutMs = 20_000): Promise<Hash[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hashes = await pooled(url);
    if (hashes.length >= count) return hashes;
    if (Date.now() > deadline) throw new Error(`the pool held ${hashes.length} transactions, not ${count}, after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function blockNumber(url: string): Promise<bigint> {
  return BigInt(await rpc<string>(url, "eth_blockNumber"));
}

/** Waits until the chain has mined `count` more blocks. */
export async function waitBlocks(url: string, count: number, timeoutMs = 30_000): Promise<void> {
  const target = (await blockNumber(url)) + BigInt(count);
  const deadline = Date.now() + timeoutMs;
  while ((await blockNumber(url)) < target) {
    if (Date.now() > deadline) throw new Error(`no ${count} new blocks within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Reorganizes the chain (anvil_reorg): the last `depth` blocks are replaced by as many new ones, the given signed
 * transactions placed in them (each `[raw, index of the new block]`); transactions of the old blocks not given are
 * dropped from the chain (as a reorg on a real network would leave them, unless they are sent again).
 */
export async function reorg(url: string, depth: number, txs: [raw: `0x${string}`, block: number][] = []): Promise<void> {
  await rpc(url, "anvil_reorg", [depth, txs]);
}

/** The signed bytes of a mined or pooled transaction (to place it again in a reorg). */
export async function rawTransaction(url: string, hash: Hash): Promise<`0x${string}`> {
  return rpc<`0x${string}`>(url, "eth_getRawTransactionByHash", [hash]);
}

/**
 * Runs `work` while the chain's clock reads `at` (a block mined then), and puts the chain back as it was afterwards
 * (evm_snapshot / evm_revert, which restores its clock too): what the shop decides at a later time, from the chain.
 */
export async function atChainTime<T>(url: string, at: Date, work: () => Promise<T>): Promise<T> {
  const snapshot = await rpc<string>(url, "evm_snapshot");
  try {
    const latest = await rpc<{ timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false]);
    const seconds = Math.floor(at.getTime() / 1000) - Number(BigInt(latest.timestamp));
    if (seconds > 0) await rpc(url, "evm_increaseTime", [seconds]);
    // A few blocks at that time, so that it is as deep as any network's depth of the devnet asks.
    for (let i = 0; i < 3; i++) await rpc(url, "evm_mine");
    return await work();
  } finally {
    await rpc(url, "evm_revert", [snapshot]);
  }
}

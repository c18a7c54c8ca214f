import type { Address, Hex } from "viem";
import { anvilRpc } from "@/lib/devnet/evm/rpc";

/** A transaction in an anvil node's pool, as `txpool_content` lists it. */
export type PooledTransaction = { hash: Hex; nonce: number };

/**
 * What a test does to an anvil chain to play a node or a network at its worst: hold blocks back, mine one, lose a
 * pending transaction, go back to an earlier state, reorganize its last blocks, run at a later time. Raw JSON-RPC,
 * without the shop's clients in between. Test support only: production code never imports it.
 */
export function chainControl(rpcUrl: string) {
  const rpc = <T = unknown>(method: string, params: unknown[] = []) => anvilRpc<T>(rpcUrl, method, params);
  const blockNumber = async () => Number(await rpc<Hex>("eth_blockNumber"));
  type Pool = Record<string, Record<string, { hash: Hex; nonce: Hex }>>;
  const pool = async (sender?: Address): Promise<PooledTransaction[]> => {
    const content = await rpc<{ pending: Pool; queued: Pool }>("txpool_content");
    const of = (p: Pool) => Object.entries(p).flatMap(([from, txs]) => (!sender || from.toLowerCase() === sender.toLowerCase() ? Object.values(txs) : []));
    return [...of(content.pending), ...of(content.queued)].map((tx) => ({ hash: tx.hash, nonce: Number(tx.nonce) })).sort((a, b) => a.nonce - b.nonce);
  };
  const control = {
    rpc,
    /** Stops mining (interval and on-demand alike): transactions stay in the pool until `mine` or `resumeMining`. */
    pauseMining: async () => {
      await rpc("evm_setIntervalMining", [0]);
      await rpc("evm_setAutomine", [false]);
    },
    /** Mines a block every `seconds` again (the devnet's chains mine one a second). */
    resumeMining: (seconds = 1) => rpc("evm_setIntervalMining", [seconds]),
    /**
     * Mines a block every `ms` from here, by hand (anvil's interval takes whole seconds only: a devnet at 0.5 s blocks
     * paused and resumed); returns the way to stop it.
     */
    mineEvery: (ms: number): (() => void) => {
      const timer = setInterval(() => void rpc("evm_mine").catch(() => undefined), ms);
      return () => clearInterval(timer);
    },
    /** Mines one block now (the pool's transactions ordered by tip, highest first). */
    mine: () => rpc("evm_mine"),
    /** The node loses a pending transaction (evicted from its pool, or the node restarted without it). */
    dropTransaction: (hash: Hex) => rpc("anvil_dropTransaction", [hash]),
    /** The chain's state now, to go back to with `revert`. */
    snapshot: () => rpc<Hex>("evm_snapshot"),
    /**
     * Back to the state of `snapshot`: the chain forgets every block and transaction since, as a node restarted from
     * an older state file does, while whoever sent those transactions still counts them.
     */
    revert: async (id: Hex) => {
      if (!(await rpc<boolean>("evm_revert", [id]))) throw new Error(`No snapshot ${id} on ${rpcUrl}`);
    },
    blockNumber,
    /** The pool's transactions (of one sender, or all), lowest nonce first: those that can go next and those parked behind a gap. */
    pooled: pool,
    /** Waits until the pool holds at least `count` transactions (what the shop sent, seen from the chain). */
    waitForPool: async (count: number, timeoutMs = 20_000): Promise<PooledTransaction[]> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const txs = await pool();
        if (txs.length >= count) return txs;
        if (Date.now() > deadline) throw new Error(`the pool held ${txs.length} transactions, not ${count}, after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    /** Waits until the chain has mined `count` more blocks. */
    waitBlocks: async (count: number, timeoutMs = 30_000): Promise<void> => {
      const target = (await blockNumber()) + count;
      const deadline = Date.now() + timeoutMs;
      while ((await blockNumber()) < target) {
        if (Date.now() > deadline) throw new Error(`no ${count} new blocks within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /**
     * Reorganizes the chain (anvil_reorg): the last `depth` blocks are replaced by as many new ones, the given signed
     * transactions placed in them (each `[raw, index of the new block]`); the old blocks' transactions are gone from
     * the chain. The new blocks are built on the state before the old ones: a sender's gas must come from earlier.
     */
    reorg: (depth: number, txs: [raw: Hex, block: number][] = []) => rpc("anvil_reorg", [depth, txs]),
    /**
     * Runs `work` while the chain's clock reads `at` (a few blocks mined then, as deep as any devnet depth), and puts
     * the chain back as it was afterwards (evm_snapshot / evm_revert restore its clock too): what the shop decides at a
     * later time, from the chain.
     */
    atTime: async <T>(at: Date, work: () => Promise<T>): Promise<T> => {
      const id = await control.snapshot();
      try {
        const latest = await rpc<{ timestamp: Hex }>("eth_getBlockByNumber", ["latest", false]);
        const seconds = Math.floor(at.getTime() / 1000) - Number(BigInt(latest.timestamp));
        if (seconds > 0) await rpc("evm_increaseTime", [seconds]);
        for (let i = 0; i < 3; i++) await rpc("evm_mine");
        return await work();
      } finally {
        await control.revert(id);
      }
    },
  };
  return control;
}

export type ChainControl = ReturnType<typeof chainControl>;

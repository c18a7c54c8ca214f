import type { Address, Hex } from "viem";
import { anvilRpc } from "@/lib/devnet/evm/rpc";

/** A transaction in an anvil node's pool, as `txpool_content` lists it. */
export type PooledTransaction = { hash: Hex; nonce: number };

/**
 * What a test does to an anvil chain to play a node or a network at its worst: hold blocks back, mine one, lose a
 * pending transaction, go back to an earlier state. Test support only: production code never imports it.
 */
export function chainControl(rpcUrl: string) {
  const rpc = <T = unknown>(method: string, params: unknown[] = []) => anvilRpc<T>(rpcUrl, method, params);
  return {
    /** Stops mining: transactions stay in the pool until `mine` or `resumeMining`. */
    pauseMining: () => rpc("evm_setIntervalMining", [0]),
    /** Mines a block every `seconds` again (the devnet's chains mine one a second). */
    resumeMining: (seconds = 1) => rpc("evm_setIntervalMining", [seconds]),
    /** Mines one block now. */
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
    blockNumber: async () => Number(await rpc<Hex>("eth_blockNumber")),
    /** A sender's transactions in the pool, lowest nonce first: the ones that can go next and those parked behind a gap. */
    pooled: async (sender: Address): Promise<PooledTransaction[]> => {
      type Pool = Record<string, Record<string, { hash: Hex; nonce: Hex }>>;
      const content = await rpc<{ pending: Pool; queued: Pool }>("txpool_content");
      const mine = (pool: Pool) => Object.entries(pool).flatMap(([from, txs]) => (from.toLowerCase() === sender.toLowerCase() ? Object.values(txs) : []));
      return [...mine(content.pending), ...mine(content.queued)].map((tx) => ({ hash: tx.hash, nonce: Number(tx.nonce) })).sort((a, b) => a.nonce - b.nonce);
    },
  };
}

export type ChainControl = ReturnType<typeof chainControl>;

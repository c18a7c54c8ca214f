import fs from "node:fs";
import path from "node:path";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import { DEVNET_ADDRESS_CHAINS, DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS } from "./chains";
import { startEvmChain, mintUsdc as mintEvmUsdc, usdcBalance as evmUsdcBalance, type EvmDevChain } from "./evm";
import { loadDevnetKeys, type DevnetKeys } from "./keys";
import { startSolanaChain, type SolanaDevChain } from "./solana";
import { createSolanaRpc, type Address } from "@solana/kit";

/** What a wallet given USDC on Solana also gets, when it holds less, for the fees of its own transfers (0.01 SOL). */
const FEE_LAMPORTS = 10_000_000n;

export type Devnet = {
  networks: PaymentNetwork[];
  /** The chains where invoices are paid by address only (Ethereum): not x402 networks. */
  addressNetworks: EvmNetwork[];
  keys: DevnetKeys;
  /**
   * Mints devnet USDC (atomic units) to an address on a network (creating its Solana token account, and giving it a
   * little SOL for its own transfers' fees when it holds less).
   */
  mint(network: string, address: string, amountAtomic: bigint): Promise<string>;
  balance(network: string, address: string): Promise<bigint>;
  stop(): Promise<void>;
};

/**
 * Starts the three local EVM chains of x402, the one of Ethereum (paid by address only) and the local Solana chain on loopback, with state kept under
 * `<dataDir>/devnet` so balances and used authorizations survive a restart. With `blockTimeSeconds` the EVM chains
 * mine on that interval and Solana transactions confirm with the slot clock, as real chains do.
 */
export async function startDevnet(dataDir: string, opts: { blockTimeSeconds?: number } = {}): Promise<Devnet> {
  const keys = await loadDevnetKeys(dataDir);
  const stateDir = path.join(dataDir, "devnet");
  fs.mkdirSync(stateDir, { recursive: true });

  const started: { stop(): Promise<void> }[] = [];
  try {
    const evmChains = await Promise.all(
      [...DEVNET_EVM_CHAINS, ...DEVNET_ADDRESS_CHAINS].map(async (c) => {
        const chain = await startEvmChain({
          chainId: c.chainId,
          name: c.name,
          usdcAddress: DEVNET_USDC_ADDRESS,
          stateFile: path.join(stateDir, `${c.key}.json`),
          gasWallets: [keys.evmFacilitator.address],
          blockTimeSeconds: opts.blockTimeSeconds,
        });
        started.push(chain);
        return { key: c.key, chain };
      }),
    );
    const solana = await startSolanaChain({
      stateFile: path.join(stateDir, "solana.json"),
      feePayers: [keys.solanaFacilitator.address],
      tokenOwners: [keys.solanaPayTo.address],
      confirmBySlot: (opts.blockTimeSeconds ?? 0) > 0,
    });
    started.push(solana);

    // Mined every block time, a payment counts one block deeper than its own (a reorg test can take that block away);
    // mined on demand, no block comes on top until the next transaction.
    const depth = (opts.blockTimeSeconds ?? 0) > 0 ? 2 : 1;
    const networks: PaymentNetwork[] = [
      ...evmChains.filter(({ key }) => key !== "ethereum").map(({ key, chain }): EvmNetwork => evmNetwork(key, chain, keys.evmPayTo.address, depth)),
      solanaNetwork(solana, keys.solanaPayTo.address),
    ];
    const addressNetworks = evmChains.filter(({ key }) => key === "ethereum").map(({ key, chain }) => evmNetwork(key, chain, keys.evmPayTo.address, depth));
    const evmByNetwork = new Map(evmChains.map(({ chain }) => [`eip155:${chain.chainId}`, chain]));

    return {
      networks,
      addressNetworks,
      keys,
      async mint(network, address, amountAtomic) {
        const evm = evmByNetwork.get(network);
        if (evm) return mintEvmUsdc(evm.rpcUrl, evm.usdc.address, address as `0x${string}`, amountAtomic);
        if (network === solana.network) {
          const signature = await solana.mintUsdc(address, amountAtomic);
          // A plain transfer (Solana Pay) is the payer's own transaction: it needs SOL for its fee.
          const { value: lamports } = await createSolanaRpc(solana.rpcUrl)
            .getBalance(address as Address)
            .send();
          if (lamports < FEE_LAMPORTS) solana.airdrop(address, FEE_LAMPORTS);
          return signature;
        }
        throw new Error(`Unknown devnet network ${network}`);
      },
      async balance(network, address) {
        const evm = evmByNetwork.get(network);
        if (evm) return evmUsdcBalance(evm.rpcUrl, evm.usdc.address, address as `0x${string}`);
        if (network === solana.network) return solana.usdcBalance(address);
        throw new Error(`Unknown devnet network ${network}`);
      },
      stop: () => stopAll(started),
    };
  } catch (err) {
    await stopAll(started);
    throw err;
  }
}

async function stopAll(chains: { stop(): Promise<void> }[]) {
  await Promise.allSettled(chains.map((c) => c.stop()));
}

/** A local EVM chain as one of the shop's networks (the devnet's, and the tests' and benchmarks' own chains). */
export function evmNetwork(key: "base" | "arbitrum" | "polygon" | "ethereum", chain: EvmDevChain, payTo: string, confirmations: number): EvmNetwork {
  return {
    key,
    kind: "evm",
    network: `eip155:${chain.chainId}`,
    chainId: chain.chainId,
    name: chain.name,
    rpcUrl: chain.rpcUrl,
    payTo,
    usdc: { address: chain.usdc.address, name: chain.usdc.name, version: chain.usdc.version, decimals: chain.usdc.decimals },
    confirmations,
  };
}

function solanaNetwork(chain: SolanaDevChain, payTo: string): SolanaNetwork {
  return {
    key: "solana",
    kind: "solana",
    network: chain.network as `solana:${string}`,
    name: chain.name,
    rpcUrl: chain.rpcUrl,
    payTo,
    usdc: { mint: chain.usdc.mint, decimals: chain.usdc.decimals },
  };
}

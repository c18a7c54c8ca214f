import { USDC_DECIMALS } from "@/lib/platform/money";
import type { Config } from "@/lib/platform/config";

/** USDC has 6 decimals on every network we use. */

/** The networks x402 pays on, and Ethereum, where invoices are paid by a transfer to their own address only. */
export type NetworkKey = "base" | "arbitrum" | "polygon" | "solana" | "ethereum";

type Common = {
  key: NetworkKey;
  /** CAIP-2 id, as x402 names networks. */
  network: string;
  name: string;
  rpcUrl: string;
  /** Where payments on this network go. */
  payTo: string;
  /** Block explorer URL of a transaction, when the network has one. */
  explorerTx?: (hash: string) => string;
};

export type EvmNetwork = Common & {
  kind: "evm";
  network: `eip155:${number}`;
  chainId: number;
  usdc: { address: `0x${string}`; name: string; version: string; decimals: number };
  /**
   * How deep a payment's block must be before the payment counts (codes delivered, a balance credited): the number of
   * blocks from its block to the head, its own included (1: as soon as it is mined). See CONFIRMATIONS below.
   */
  confirmations?: number;
};

export type SolanaNetwork = Common & {
  kind: "solana";
  network: `solana:${string}`;
  usdc: { mint: string; decimals: number };
};

export type PaymentNetwork = EvmNetwork | SolanaNetwork;

type StaticEvm = Omit<EvmNetwork, "payTo" | "rpcUrl"> & { defaultRpcUrl: string };
type StaticSolana = Omit<SolanaNetwork, "payTo" | "rpcUrl"> & { defaultRpcUrl: string };

/**
 * The depth at which a payment counts on each EVM network (blocks from its block to the head, its own included), for
 * testnet and mainnet alike. A block this deep has not been reorganized away in the networks' recent history; a
 * payment counted earlier could be (its codes would be out while the shop holds nothing):
 * - Base: blocks every 2 s from one sequencer; a block is `safe` only once its batch is on Ethereum (minutes) and
 *   final after about 15 minutes, far too long for a checkout. Reorgs of the sequencer's own blocks are rare and
 *   shallow: 3 blocks (about 6 s) is past them.
 * - Arbitrum One: soft-confirmed by its sequencer every 0.25 s, final on Ethereum after about 15 minutes, likewise too
 *   long; 20 blocks is about 5 s.
 * - Polygon PoS: final through Heimdall milestones, typically within 2 to 5 s; 5 blocks of 2 s (about 10 s) covers a
 *   milestone in the usual case.
 * x402's own facilitators answer on the first receipt (depth 1); the shop waits these few seconds more before it
 * hands out codes. Ethereum (paid by address only): a block every 12 s, final after two epochs (about 13 minutes);
 * 12 blocks (about 2.4 minutes) is past any reorganization of its recent history (proof of stake has seen none deeper
 * than a few blocks), what exchanges commonly wait for deposits. Solana payments count at the `confirmed` commitment (a supermajority of stake voted the block; no
 * confirmed block has been rolled back on mainnet). On the devnet, whose chains mine every second, the depth is 2 (the
 * block and one on top); with blocks mined on demand (DEVNET_BLOCK_TIME=0) it is 1.
 */
export const CONFIRMATIONS = { base: 3, arbitrum: 20, polygon: 5, ethereum: 12 } as const;

// The USDC EIP-712 domain differs per chain: Base Sepolia's and Polygon Amoy's tokens call themselves "USDC", the others "USD Coin".
const TESTNET: (StaticEvm | StaticSolana)[] = [
  {
    key: "base",
    kind: "evm",
    network: "eip155:84532",
    chainId: 84532,
    name: "Base Sepolia",
    defaultRpcUrl: "https://sepolia.base.org",
    usdc: { address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", name: "USDC", version: "2", decimals: USDC_DECIMALS },
    confirmations: CONFIRMATIONS.base,
    explorerTx: (h) => `https://sepolia.basescan.org/tx/${h}`,
  },
  {
    key: "arbitrum",
    kind: "evm",
    network: "eip155:421614",
    chainId: 421614,
    name: "Arbitrum Sepolia",
    defaultRpcUrl: "https://sepolia-rollup.arbitrum.io/rpc",
    usdc: { address: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d", name: "USD Coin", version: "2", decimals: USDC_DECIMALS },
    confirmations: CONFIRMATIONS.arbitrum,
    explorerTx: (h) => `https://sepolia.arbiscan.io/tx/${h}`,
  },
  {
    // Circle's USDC on Polygon Amoy (not in @x402/evm's default asset table, so its EIP-712 domain is given here).
    key: "polygon",
    kind: "evm",
    network: "eip155:80002",
    chainId: 80002,
    name: "Polygon Amoy",
    defaultRpcUrl: "https://rpc-amoy.polygon.technology",
    usdc: { address: "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582", name: "USDC", version: "2", decimals: USDC_DECIMALS },
    confirmations: CONFIRMATIONS.polygon,
    explorerTx: (h) => `https://amoy.polygonscan.com/tx/${h}`,
  },
  {
    key: "solana",
    kind: "solana",
    network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    name: "Solana Devnet",
    defaultRpcUrl: "https://api.devnet.solana.com",
    usdc: { mint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", decimals: USDC_DECIMALS },
    explorerTx: (h) => `https://explorer.solana.com/tx/${h}?cluster=devnet`,
  },
];

const MAINNET: (StaticEvm | StaticSolana)[] = [
  {
    key: "base",
    kind: "evm",
    network: "eip155:8453",
    chainId: 8453,
    name: "Base",
    defaultRpcUrl: "https://mainnet.base.org",
    usdc: { address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", name: "USD Coin", version: "2", decimals: USDC_DECIMALS },
    confirmations: CONFIRMATIONS.base,
    explorerTx: (h) => `https://basescan.org/tx/${h}`,
  },
  {
    key: "arbitrum",
    kind: "evm",
    network: "eip155:42161",
    chainId: 42161,
    name: "Arbitrum One",
    defaultRpcUrl: "https://arb1.arbitrum.io/rpc",
    usdc: { address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", name: "USD Coin", version: "2", decimals: USDC_DECIMALS },
    confirmations: CONFIRMATIONS.arbitrum,
    explorerTx: (h) => `https://arbiscan.io/tx/${h}`,
  },
  {
    key: "polygon",
    kind: "evm",
    network: "eip155:137",
    chainId: 137,
    name: "Polygon",
    defaultRpcUrl: "https://polygon-rpc.com",
    usdc: { address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", name: "USD Coin", version: "2", decimals: USDC_DECIMALS },
    confirmations: CONFIRMATIONS.polygon,
    explorerTx: (h) => `https://polygonscan.com/tx/${h}`,
  },
  {
    key: "solana",
    kind: "solana",
    network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
    name: "Solana",
    defaultRpcUrl: "https://api.mainnet-beta.solana.com",
    usdc: { mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", decimals: USDC_DECIMALS },
    explorerTx: (h) => `https://explorer.solana.com/tx/${h}`,
  },
];

/**
 * Networks where the shop takes payments by a transfer to an invoice's own address only (no x402 facilitator there):
 * Ethereum, for ether (`ethereum`) and USDC (`usdc_erc20`).
 */
const ADDRESS_ONLY: Record<"testnet" | "mainnet", StaticEvm[]> = {
  testnet: [
    {
      key: "ethereum",
      kind: "evm",
      network: "eip155:11155111",
      chainId: 11155111,
      name: "Sepolia",
      defaultRpcUrl: "https://ethereum-sepolia-rpc.publicnode.com",
      usdc: { address: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", name: "USDC", version: "2", decimals: USDC_DECIMALS },
      confirmations: CONFIRMATIONS.ethereum,
      explorerTx: (h) => `https://sepolia.etherscan.io/tx/${h}`,
    },
  ],
  mainnet: [
    {
      key: "ethereum",
      kind: "evm",
      network: "eip155:1",
      chainId: 1,
      name: "Ethereum",
      defaultRpcUrl: "https://ethereum-rpc.publicnode.com",
      usdc: { address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", name: "USD Coin", version: "2", decimals: USDC_DECIMALS },
      confirmations: CONFIRMATIONS.ethereum,
      explorerTx: (h) => `https://etherscan.io/tx/${h}`,
    },
  ],
};

/** The address-only networks of a testnet or mainnet configuration (Ethereum), with RPC overrides and payTo applied. */
export function publicAddressNetworks(c: Config): EvmNetwork[] {
  if (c.networkMode === "devnet") throw new Error("devnet networks come from the running local chains");
  return ADDRESS_ONLY[c.networkMode].map(({ defaultRpcUrl, ...n }) => ({ ...n, rpcUrl: c.rpcUrls[n.key] ?? defaultRpcUrl, payTo: c.payTo.evm ?? "" }));
}

/** What a testnet/mainnet configuration lacks to take payments, by variable name; empty when complete. */
export function missingPaymentSettings(c: Config): string[] {
  if (c.networkMode === "devnet") return [];
  const missing: string[] = [];
  // Sign-in messages are bound to the origin: on a real network it must not come from a client's Host header.
  if (!c.publicOrigin) missing.push("PUBLIC_ORIGIN (the shop's public origin, e.g. https://shop.example.com)");
  if (!c.payTo.evm) missing.push("PAY_TO_EVM (the EVM address that receives payments)");
  if (!c.payTo.solana) missing.push("PAY_TO_SOLANA (the Solana address that receives payments)");
  if (!c.facilitatorUrl) {
    if (c.facilitatorEvmPrivateKeys.length === 0) missing.push("FACILITATOR_URL, or FACILITATOR_EVM_PRIVATE_KEY for the in-process facilitator");
    if (!c.facilitatorSolanaPrivateKey) missing.push("FACILITATOR_URL, or FACILITATOR_SOLANA_PRIVATE_KEY for the in-process facilitator");
  }
  return [...new Set(missing)];
}

/** The networks of a testnet or mainnet configuration, with RPC overrides and payTo addresses applied. */
export function publicNetworks(c: Config): PaymentNetwork[] {
  if (c.networkMode === "devnet") throw new Error("devnet networks come from the running local chains");
  const table = c.networkMode === "testnet" ? TESTNET : MAINNET;
  return table.map(({ defaultRpcUrl, ...n }): PaymentNetwork => {
    const rpcUrl = c.rpcUrls[n.key] ?? defaultRpcUrl;
    return n.kind === "evm"
      ? { ...(n as Omit<EvmNetwork, "payTo" | "rpcUrl">), rpcUrl, payTo: c.payTo.evm ?? "" }
      : { ...(n as Omit<SolanaNetwork, "payTo" | "rpcUrl">), rpcUrl, payTo: c.payTo.solana ?? "" };
  });
}

/** The x402 `asset` of a network's USDC. */
export function usdcAsset(n: PaymentNetwork): string {
  return n.kind === "evm" ? n.usdc.address : n.usdc.mint;
}

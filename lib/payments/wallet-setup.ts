import { config } from "@/lib/platform/config";
import { getPayments } from "./payments";

/**
 * What the browser's wallet stack needs to know about the networks of this deployment: sent from the server to the
 * wallet pages as props (the devnet's RPC ports are only known at run time). Serializable, no secrets.
 */
export type WalletSetup = {
  mode: "devnet" | "testnet" | "mainnet";
  evm: { key: string; network: `eip155:${number}`; chainId: number; name: string; rpcUrl: string; usdc: `0x${string}`; explorerTx?: string }[];
  /** EVM networks where invoices are paid by a transfer to their own address only (Ethereum): a wallet sends there, x402 does not. */
  addressOnlyEvm?: WalletSetup["evm"];
  solana: { network: `solana:${string}`; name: string; rpcUrl: string; mint: string; explorerTx?: string };
  /** WalletConnect appears in the connect dialog only with a project id. */
  walletConnectProjectId: string | null;
};

export async function walletSetup(): Promise<WalletSetup> {
  const { networks, addressNetworks } = await getPayments();
  const tx = (n: { explorerTx?: (h: string) => string }) => (n.explorerTx ? { explorerTx: n.explorerTx("{tx}") } : {});
  const solana = networks.find((n) => n.kind === "solana");
  // Every network mode has Solana (see lib/platform/networks/index.ts).
  if (solana?.kind !== "solana") throw new Error("No Solana network is configured");
  const c = config();
  return {
    mode: c.networkMode,
    evm: networks.flatMap((n) =>
      n.kind === "evm" ? [{ key: n.key, network: n.network, chainId: n.chainId, name: n.name, rpcUrl: n.rpcUrl, usdc: n.usdc.address, ...tx(n) }] : [],
    ),
    addressOnlyEvm: addressNetworks
      .filter((n) => !networks.some((x) => x.network === n.network))
      .map((n) => ({ key: n.key, network: n.network, chainId: n.chainId, name: n.name, rpcUrl: n.rpcUrl, usdc: n.usdc.address, ...tx(n) })),
    solana: { network: solana.network, name: solana.name, rpcUrl: solana.rpcUrl, mint: solana.usdc.mint, ...tx(solana) },
    walletConnectProjectId: c.walletConnectProjectId ?? null,
  };
}

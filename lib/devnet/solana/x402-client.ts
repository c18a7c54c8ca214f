/**
 * The x402 Solana client wired to the local chain; browser-safe (no Node, no litesvm). Why an adapter is
 * needed at all: see ./x402.ts.
 */
import type { DefaultAsset, Network, PaymentRequirements, SchemeNetworkClient } from "@x402/core/types";
import { SOLANA_DEVNET_CAIP2, type ClientSvmSigner } from "@x402/svm";
import { ExactSvmScheme as ExactSvmClientScheme } from "@x402/svm/exact/client";

/** What the adapters need to know about the local chain (a `SolanaDevChain` fits). */
export type LocalSolanaChainInfo = {
  network: `solana:${string}`;
  rpcUrl: string;
  usdc: { mint: string; decimals: number };
};

/**
 * The x402 "exact" Solana client scheme for the local chain: the stock scheme, given our RPC URL. Register it
 * for the local network id: `new x402Client().register(chain.network, localnetExactSvmClient(signer, chain))`.
 * The local USDC counts as a default asset, so x402Client's default spend cap ($1 a payment) applies to it
 * as it does to real USDC; raise it with `setSpendControls` / the `spendControls` option.
 */
export function localnetExactSvmClient(
  signer: ClientSvmSigner,
  chain: Pick<LocalSolanaChainInfo, "network" | "rpcUrl"> & { usdc?: LocalSolanaChainInfo["usdc"] },
): SchemeNetworkClient {
  const inner = new ExactSvmClientScheme(signer, { rpcUrl: chain.rpcUrl });
  return {
    scheme: inner.scheme,
    findDefaultAsset(asset: string, network: Network): DefaultAsset | undefined {
      if (network !== chain.network || !chain.usdc || asset !== chain.usdc.mint) return undefined;
      return { asset, decimals: chain.usdc.decimals, symbol: "USDC" };
    },
    createPaymentPayload(x402Version: number, requirements: PaymentRequirements) {
      if (requirements.network !== chain.network) {
        throw new Error(`This client pays on ${chain.network}, not on ${requirements.network}`);
      }
      return inner.createPaymentPayload(x402Version, { ...requirements, network: SOLANA_DEVNET_CAIP2 });
    },
  };
}

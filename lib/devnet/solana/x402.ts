/**
 * Wiring of the official x402 Solana packages to the local chain. @x402/svm 2.27 knows only the three real
 * clusters in some places:
 *
 * - Client (`ExactSvmScheme` from "@x402/svm/exact/client"): builds its RPC client with
 *   `createRpcClient(network, rpcUrl)`, which throws "Unsupported SVM network" for any other CAIP-2 id even
 *   when `rpcUrl` is given, and so does its `findDefaultAsset` (which x402Client's spend controls call).
 *   {@link localnetExactSvmClient} hands the stock scheme the devnet id instead (the id only picks the RPC
 *   client there; a Solana transaction does not name its network) plus our `rpcUrl`, while x402Client still
 *   copies the real requirements, local network included, into `accepted`.
 * - Facilitator (`toFacilitatorSvmSigner`): takes the RPC per network from its map (exact id, then "*") before
 *   it falls back to `createRpcClient`; pass the map form. A bare kit RPC object is mistaken for a map (kit's
 *   RPC is a Proxy: `"getBalance" in rpc` is false). Nothing else in its verify/settle looks at the id.
 * - Resource server (`ExactSvmScheme` from "@x402/svm/exact/server"): `getAssetDecimals` and "$0.01" prices
 *   throw for an unknown network; {@link LocalnetExactSvmServerScheme} answers both for the local USDC.
 *
 * No Node or litesvm imports here: the client part also runs in the browser.
 */
import { createSolanaRpc, devnet, type KeyPairSigner } from "@solana/kit";
import type { DefaultAsset, Network, PaymentRequirements, SchemeNetworkClient } from "@x402/core/types";
import { convertToTokenAmount } from "@x402/core/utils";
import { SOLANA_DEVNET_CAIP2, toFacilitatorSvmSigner, type ClientSvmSigner, type FacilitatorSvmSigner } from "@x402/svm";
import { ExactSvmScheme as ExactSvmClientScheme } from "@x402/svm/exact/client";
import { ExactSvmScheme as ExactSvmServerScheme } from "@x402/svm/exact/server";

/** What the adapters need to know about the local chain (a `SolanaDevChain` fits). */
export type LocalSolanaChainInfo = {
  network: string;
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

/**
 * The facilitator's signer for the local chain: `toFacilitatorSvmSigner` with the RPC keyed by the local
 * network id (other networks keep the package's default RPCs).
 * Use: `facilitator.register(chain.network, new ExactSvmScheme(localnetFacilitatorSvmSigner(keypair, chain)))`.
 */
export function localnetFacilitatorSvmSigner(
  signer: KeyPairSigner,
  chain: Pick<LocalSolanaChainInfo, "network" | "rpcUrl">,
): FacilitatorSvmSigner {
  return toFacilitatorSvmSigner(signer, { [chain.network]: createSolanaRpc(devnet(chain.rpcUrl)) });
}

/**
 * The resource server's "exact" Solana scheme for the local chain: the stock one, plus the local USDC's
 * decimals and "$…" prices on the local network. Register it for the local network id.
 */
export class LocalnetExactSvmServerScheme extends ExactSvmServerScheme {
  constructor(private readonly chain: Pick<LocalSolanaChainInfo, "network" | "usdc">) {
    super();
    this.registerMoneyParser(async (amount, network) =>
      network === chain.network
        ? { amount: convertToTokenAmount(String(amount), chain.usdc.decimals), asset: chain.usdc.mint, extra: {} }
        : null,
    );
  }

  override getAssetDecimals(asset: string, network: Network): number | undefined {
    if (network === this.chain.network) return asset === this.chain.usdc.mint ? this.chain.usdc.decimals : undefined;
    return super.getAssetDecimals(asset, network);
  }
}

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
 */
import { createSolanaRpc, devnet, type KeyPairSigner } from "@solana/kit";
import type { Network } from "@x402/core/types";
import { convertToTokenAmount } from "@x402/core/utils";
import { toFacilitatorSvmSigner, type FacilitatorSvmSigner } from "@x402/svm";
import { ExactSvmScheme as ExactSvmServerScheme } from "@x402/svm/exact/server";
import type { LocalSolanaChainInfo } from "./x402-client";

export { localnetExactSvmClient, type LocalSolanaChainInfo } from "./x402-client";

/**
 * The facilitator's signer for the local chain: `toFacilitatorSvmSigner` with the RPC keyed by the local
 * network id (other networks keep the package's default RPCs).
 * Use: `facilitator.register(chain.network, new ExactSvmScheme(localnetFacilitatorSvmSigner(keypair, chain)))`.
 */
export function localnetFacilitatorSvmSigner(signer: KeyPairSigner, chain: Pick<LocalSolanaChainInfo, "network" | "rpcUrl">): FacilitatorSvmSigner {
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
      network === chain.network ? { amount: convertToTokenAmount(String(amount), chain.usdc.decimals), asset: chain.usdc.mint, extra: {} } : null,
    );
  }

  override getAssetDecimals(asset: string, network: Network): number | undefined {
    if (network === this.chain.network) return asset === this.chain.usdc.mint ? this.chain.usdc.decimals : undefined;
    return super.getAssetDecimals(asset, network);
  }
}

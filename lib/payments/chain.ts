import { defineChain } from "viem";
import type { EvmNetwork } from "@/lib/platform/networks";

/** The viem chain of one of the shop's EVM networks (its RPC from the configuration). */
export function viemChain(n: EvmNetwork) {
  return defineChain({
    id: n.chainId,
    name: n.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [n.rpcUrl] } },
  });
}

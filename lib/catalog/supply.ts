import { config } from "@/lib/platform/config";

/**
 * Whether the demo supplier and the test products (`test-*`, `*-fail`) exist: on the devnet only, and not when an
 * upstream supplier is configured (the catalog is then the upstream's). On testnet and mainnet real USDC is paid, so
 * a product without a real supplier (imported stock, the upstream) is out of stock, never faked, and test products
 * are neither listed nor sold.
 */
export function demoSupply(): boolean {
  const c = config();
  return c.networkMode === "devnet" && !c.upstream;
}

/**
 * Whether the upstream supplier's products can be sold: while one is configured (UPSTREAM_API_URL). Its orders are
 * bought upstream when paid (lib/supply/purchase.ts).
 */
export function upstreamSupply(): boolean {
  return config().upstream !== undefined;
}

import { config } from "@/lib/config";

/**
 * Whether the demo supplier and the test products (`test-*`, `*-fail`) exist: on the devnet only. On testnet and
 * mainnet real USDC is paid, so a product without a real supplier (imported stock) is out of stock, never faked, and
 * test products are neither listed nor sold.
 */
export function demoSupply(): boolean {
  return config().networkMode === "devnet";
}

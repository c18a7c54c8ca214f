// The local chains (anvil, litesvm) of devnet mode and their faucet. What other features import from it.
import { config } from "@/lib/platform/config";
import { onShutdown } from "@/lib/platform/runtime/shutdown";
import { loadStartDevnet } from "./load";
import { connectDevnet } from "./shared";
import type { Devnet } from "./start-devnet";

export type { Devnet } from "./start-devnet";
export { DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS, FAUCET_MAX_USDC } from "./chains";

const globalForDevnet = globalThis as typeof globalThis & { __storefrontDevnet?: Promise<Devnet> };

/**
 * The process's local chains (devnet mode only), started once: also across `next dev` reloads, and stopped
 * when the process exits.
 */
export function getDevnet(): Promise<Devnet> {
  const c = config();
  if (c.networkMode !== "devnet") return Promise.reject(new Error("The local chains run in devnet mode only"));
  if (!globalForDevnet.__storefrontDevnet) {
    // DEVNET_URL: chains another process runs (npm run devnet), shared with other servers; else this process's own.
    // The chains' packages (anvil, litesvm) are loaded only here: a testnet or mainnet server (the Docker image) runs
    // without them.
    const starting = c.devnetUrl
      ? connectDevnet(c.devnetUrl)
      : loadStartDevnet().then((startDevnet) => startDevnet(c.dataDir, { blockTimeSeconds: c.devnetBlockTime }));
    globalForDevnet.__storefrontDevnet = starting;
    starting.then(
      // A graceful stop lets anvil dump its state first.
      (devnet) => onShutdown(() => devnet.stop()),
      () => {
        if (globalForDevnet.__storefrontDevnet === starting) globalForDevnet.__storefrontDevnet = undefined;
      },
    );
  }
  return globalForDevnet.__storefrontDevnet;
}
export { anvilRpc } from "./evm/rpc";
export { LocalnetExactSvmServerScheme } from "./solana/x402";

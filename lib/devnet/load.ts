import { resolveAnvilBinary } from "./evm/start-evm-chain";
import type { startDevnet as StartDevnet } from "./start-devnet";

/**
 * The packages only devnet mode runs on: the local chains. anvil is an optional dependency; litesvm a plain one (as an
 * optional one npm would skip it on Node 20, for a package of its that asks for Node 22), left out of the Docker image.
 */
export const DEVNET_PACKAGES = ["litesvm", "@foundry-rs/anvil"] as const;

/**
 * Loads the local chains' code, which alone imports the devnet packages, only when devnet mode asks for it: the
 * testnet and mainnet paths never load it, and run where those packages are not installed (the Docker image).
 */
export async function loadStartDevnet(): Promise<typeof StartDevnet> {
  let startDevnet: typeof StartDevnet;
  try {
    startDevnet = (await import("./start-devnet")).startDevnet;
  } catch (err) {
    throw devnetPackagesError(err) ?? err;
  }
  try {
    resolveAnvilBinary();
  } catch (err) {
    throw packagesMissing(err);
  }
  return startDevnet;
}

/** A clear error for a devnet package that is missing (or lacks its native build for this platform), else undefined. */
export function devnetPackagesError(err: unknown): Error | undefined {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const notFound = code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND" || /cannot find (module|package)/i.test(message);
  // litesvm's own message when its platform package is missing: the one native binding the chains' code loads.
  const noBinding = /native binding/i.test(message);
  if (!noBinding && !(notFound && DEVNET_PACKAGES.some((p) => message.includes(p)))) return undefined;
  return packagesMissing(err);
}

function packagesMissing(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new Error(
    `NETWORK_MODE=devnet needs the packages ${DEVNET_PACKAGES.join(" and ")} for its local chains, and they are not ` +
      `installed here (${message.split("\n")[0]}). Install them (npm install or npm ci, without --omit=optional), ` +
      "or set NETWORK_MODE=testnet or mainnet with its payment settings (the Docker image runs only those).",
    { cause: err },
  );
}

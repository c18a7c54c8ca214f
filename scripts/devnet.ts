// `npm run devnet`: the local chains alone (three anvil EVM chains and the Solana devnet), served to shop servers on
// loopback. Start shops with DEVNET_URL set to the URL it prints; several shops then share one set of chains, wallets
// and faucet, and the chains outlive restarts of `npm run dev`.
//   npm run devnet [-- --port 4020] [--data-dir .data] [--block-time 1]
// DATA_DIR and DEVNET_BLOCK_TIME work as for the shop. Ctrl-C stops the chains (their state is kept in the data folder).
import { parseArgs } from "node:util";
import { config } from "@/lib/platform/config";
import { loadDevnetSecrets } from "@/lib/devnet/keys";
import { loadStartDevnet } from "@/lib/devnet/load";
import { serveDevnet } from "@/lib/devnet/shared";

async function main() {
  const { values } = parseArgs({
    options: { port: { type: "string", default: "4020" }, "data-dir": { type: "string" }, "block-time": { type: "string" } },
  });
  const c = config();
  const port = Number(values.port);
  const blockTime = values["block-time"] === undefined ? c.devnetBlockTime : Number(values["block-time"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port must be 0 to 65535");
  if (!Number.isFinite(blockTime) || blockTime < 0 || blockTime > 60) throw new Error("--block-time must be 0 to 60 seconds");
  const dataDir = values["data-dir"] ?? c.dataDir;

  const startDevnet = await loadStartDevnet();
  const devnet = await startDevnet(dataDir, { blockTimeSeconds: blockTime });
  const server = await serveDevnet(devnet, loadDevnetSecrets(dataDir), port).catch(async (err: unknown) => {
    await devnet.stop();
    throw err;
  });
  for (const n of devnet.networks) console.log(`[devnet]   ${n.name.padEnd(20)} ${n.network.padEnd(52)} ${n.rpcUrl}`);
  console.log(`[devnet] ${blockTime > 0 ? `a block every ${blockTime} s` : "a block per transaction"}, state in ${dataDir}/devnet`);
  // The last line: tests and scripts read the URL from it.
  console.log(`[devnet] ready: DEVNET_URL=${server.url}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await devnet.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((err: unknown) => {
  console.error(`[devnet] cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

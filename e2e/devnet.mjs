// Starts `npm run devnet` for the e2e shops that share it (DEVNET_URL) on a fixed port and a fresh data folder, and
// removes the folder afterwards:   node e2e/devnet.mjs PORT
// The devnet runs in a process group of its own (it and its anvil chains), through `node --import tsx` (see
// scripts/devnet-process.ts for why not tsx's command); whatever of the group is left when it ends is killed, so that
// no chain outlives the run.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [port = "3112"] = process.argv.slice(2);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-devnet-"));
const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", "devnet.ts"), "--port", port, "--data-dir", dataDir], {
  stdio: "inherit",
  env: { ...process.env, NETWORK_MODE: "devnet" },
  detached: true,
});
const killGroup = () => {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // The group is gone.
  }
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.on(signal, () => {
    child.kill("SIGTERM");
    // The devnet stops its chains within seconds (anvil writes its state first); what is left after 10 s is killed.
    setTimeout(killGroup, 10_000).unref();
  });
child.on("exit", (code, signal) => {
  killGroup();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

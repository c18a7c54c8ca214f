// Starts `npm run devnet` for the e2e shops that share it (DEVNET_URL) on a fixed port and a fresh data folder, and
// removes the folder afterwards:   node e2e/devnet.mjs PORT
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [port = "3112"] = process.argv.slice(2);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-devnet-"));
const child = spawn(
  process.execPath,
  [path.join("node_modules", "tsx", "dist", "cli.mjs"), path.join("scripts", "devnet.ts"), "--port", port, "--data-dir", dataDir],
  {
    stdio: "inherit",
    env: { ...process.env, NETWORK_MODE: "devnet" },
  },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

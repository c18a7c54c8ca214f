// Starts the built shop (`next start`) for the browser tests on a fresh data folder, and removes it afterwards.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const port = process.argv[2] ?? "3107";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-"));
const child = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", port, "-H", "127.0.0.1"], {
  stdio: "inherit",
  env: { ...process.env, DATA_DIR: dataDir, PORT: port },
});

const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  cleanup();
  process.exit(code ?? (signal ? 1 : 0));
});

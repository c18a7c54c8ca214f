// Before each test file. The files of a worker share its process (`isolate: false` in vitest.config.mts: the packages
// under node_modules are loaded once per worker, not once per file), so each file starts here from what a new process
// would have:
// - the environment as the worker started with it (a file that sets a variable does not hand it to the next), with a
//   data folder of the worker's own (DATA_DIR: what a file opens there by default, such as the devnet's chains, is not
//   shared with the other workers, nor left in the repository's .data);
// - the chains of the process's devnet stopped, if the file before started them and left them running (its process's
//   exit used to stop them);
// - the project's own modules loaded anew (their module-level state with them), and the process-wide state the shop keeps
//   on globalThis (`__storefront…`, lib/*) dropped; the metrics' registry stays, prom-client being loaded once;
// - then the domain's event listeners wired, as the server does at start (lib/wiring.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vi } from "vitest";

type Devnet = { stop(): Promise<void> };
const g = globalThis as typeof globalThis & { __testStartEnv?: NodeJS.ProcessEnv; __storefrontDevnet?: Promise<Devnet> } & Record<string, unknown>;

if (!g.__testStartEnv) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-test-worker-"));
  process.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  g.__testStartEnv = { ...process.env, DATA_DIR: process.env.DATA_DIR || dataDir };
}
const startEnv = g.__testStartEnv;
for (const key of Object.keys(process.env)) if (!(key in startEnv)) delete process.env[key];
Object.assign(process.env, startEnv);

await g.__storefrontDevnet?.then(
  (devnet) => devnet.stop(),
  () => undefined,
);

vi.resetModules();
for (const key of Object.keys(g)) if (key.startsWith("__storefront") && key !== "__storefrontMetrics") delete g[key];

await import("@/lib/wiring");

// Starts `npm run devnet` as a child process on a free port and a data folder of its own, for tests and benchmarks
// that run several shop servers against one set of chains (DEVNET_URL). Stops it (and its chains) on stop().
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

/** How long a devnet has to stop its chains after SIGTERM (anvil writes its state first) before its group is killed. */
const STOP_GRACE_MS = 10_000;

/**
 * `node --import tsx scripts/devnet.ts ARGS`, in a process group of its own (the devnet and its anvil chains). Through
 * `--import` rather than tsx's command, which would stand between: tsx kills its child with SIGKILL when the child does
 * not report a relayed signal within 30 ms (a busy machine), and the chains of a devnet killed so outlive it.
 */
export function spawnDevnet(args: string[], stdout: "pipe" | "inherit"): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join("scripts", "devnet.ts"), ...args], {
    stdio: ["ignore", stdout, "inherit"],
    env: { ...process.env, NETWORK_MODE: "devnet" },
    detached: true,
  });
}

/**
 * Stops a devnet from spawnDevnet: SIGTERM (it stops its server, then its chains), and after STOP_GRACE_MS, or if it
 * ended leaving any, SIGKILL to every process left in its group.
 */
export async function stopDevnet(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
  }
  killGroup(child);
}

/** SIGKILL to what is left of a devnet's process group (its chains, when the devnet itself was killed). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // ESRCH: the group is gone, every process of it ended.
  }
}

export async function startDevnetProcess(
  opts: { blockTime?: number; dataDir?: string } = {},
): Promise<{ url: string; dataDir: string; stop(): Promise<void> }> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "storefront-devnet-"));
  const args = ["--port", "0", "--data-dir", dataDir];
  if (opts.blockTime !== undefined) args.push("--block-time", String(opts.blockTime));
  const child = spawnDevnet(args, "pipe");
  // A test run that ends without stopping it (a crash) takes the chains with it.
  const onExit = () => killGroup(child);
  process.once("exit", onExit);
  const stop = async () => {
    await stopDevnet(child);
    process.off("exit", onExit);
    if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const lines = readline.createInterface({ input: child.stdout! });
      const timer = setTimeout(() => reject(new Error("npm run devnet did not start within 60 s")), 60_000);
      lines.on("line", (line) => {
        const m = /DEVNET_URL=(\S+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once("exit", (code) => reject(new Error(`npm run devnet exited with ${code}`)));
    });
    return { url, dataDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

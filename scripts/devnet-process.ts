// Starts `npm run devnet` as a child process on a free port and a data folder of its own, for tests and benchmarks
// that run several shop servers against one set of chains (DEVNET_URL). Stops it (and its chains) on stop().
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

export async function startDevnetProcess(
  opts: { blockTime?: number; dataDir?: string } = {},
): Promise<{ url: string; dataDir: string; stop(): Promise<void> }> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "storefront-devnet-"));
  const args = [path.join("node_modules", "tsx", "dist", "cli.mjs"), path.join("scripts", "devnet.ts"), "--port", "0", "--data-dir", dataDir];
  if (opts.blockTime !== undefined) args.push("--block-time", String(opts.blockTime));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NETWORK_MODE: "devnet" } });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
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

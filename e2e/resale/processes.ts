import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const ROOT = path.join(__dirname, "..", "..");

/** A process a test started: the tail of its output (for a failure's message), and ways to end it. */
export type Started = {
  child: ChildProcess;
  output(): string;
  /** SIGTERM (a clean stop: e2e/server.mjs and e2e/devnet.mjs remove their folders), then its exit. */
  stop(): Promise<void>;
  /** SIGKILL: the process dies where it stands, as in a crash. */
  kill9(): Promise<void>;
};

const running = new Set<ChildProcess>();
// A worker that ends without its afterAll (a crash of the test run) still takes its processes with it.
process.once("exit", () => {
  for (const child of running) child.kill("SIGTERM");
});

/** Starts `node ARGS` in the repository with `env` added, and waits until `readyUrl` answers 200. */
export async function startNode(what: string, args: string[], env: NodeJS.ProcessEnv, readyUrl: string, timeoutMs = 120_000): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let output = "";
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-50_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const started: Started = { child, output: () => output, stop: () => end("SIGTERM"), kill9: () => end("SIGKILL") };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited before it answered:\n${output}`);
    try {
      if ((await fetch(readyUrl, { signal: AbortSignal.timeout(5_000) })).status === 200) return started;
    } catch {}
    if (Date.now() > deadline) {
      await started.stop();
      throw new Error(`${what} did not answer within ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";

/** Starts the fixture, sends SIGTERM once it is ready, and returns what it printed and how it ended. */
async function stopDuringSettlement(settlementMs: number, signals = 1) {
  // node itself with tsx's loader: tsx's CLI wrapper gives the child 30 ms to take a relayed signal before it kills it,
  // which a loaded machine misses.
  const child = spawn(process.execPath, ["--import", "tsx", path.join("test", "fixtures", "shutdown.fixture.ts"), String(settlementMs)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    if (line !== "ready") return;
    child.kill("SIGTERM");
    // Again, once the first is being handled (signals sent together are delivered as one).
    for (let i = 1; i < signals; i++) setTimeout(() => child.kill("SIGTERM"), 150 * i);
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once("exit", (c, s) => r([c, s])));
  return { lines, code, signal };
}

describe("shutdown on SIGTERM", () => {
  it("stops taking payments, waits for the settlement in flight, then stops the workers, then closes the database", async () => {
    const { lines, code, signal } = await stopDuringSettlement(800);
    expect(lines).toEqual(["ready", "settlement recorded", "intake drained, 0 unfinished, accepting false", "workers stopped", "database closed"]);
    // It still ends as SIGTERM ends a process, for the platform that sent it.
    expect(signal === "SIGTERM" || code === 143).toBe(true);
  }, 30_000);

  it("finishes its stop when SIGTERM comes again meanwhile (a supervisor signalling the group and the process)", async () => {
    const { lines, code, signal } = await stopDuringSettlement(800, 3);
    expect(lines).toEqual(["ready", "settlement recorded", "intake drained, 0 unfinished, accepting false", "workers stopped", "database closed"]);
    expect(signal === "SIGTERM" || code === 143).toBe(true);
  }, 30_000);

  // A container's `node server.js` without an init is PID 1, which the kernel gives no default signal action: the
  // shutdown's own SIGTERM to itself is dropped. The process must end all the same, with the same code.
  // Skipped only where a PID namespace cannot be made (unshare needs root, as in .ci/run, or user namespaces).
  const unshare = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]).status === 0;
  it.skipIf(!unshare)(
    "ends as PID 1 too (a container without an init), with the code SIGTERM gives",
    async () => {
      const args = [
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        process.execPath,
        "--import",
        "tsx",
        path.join("test", "fixtures", "shutdown.fixture.ts"),
        "100",
        "self",
      ];
      const child = spawn("unshare", args, { stdio: ["ignore", "pipe", "inherit"] });
      const lines: string[] = [];
      readline.createInterface({ input: child.stdout! }).on("line", (line) => lines.push(line));
      // A process that does not end is killed (with its namespace), and the test fails on its code.
      const hung = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
      clearTimeout(hung);
      expect(lines).toEqual(["ready", "settlement recorded", "intake drained, 0 unfinished, accepting false", "workers stopped", "database closed"]);
      expect(code).toBe(143);
    },
    30_000,
  );
});

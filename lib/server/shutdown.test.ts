import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";

/** Starts the fixture, sends SIGTERM once it is ready, and returns what it printed and how it ended. */
async function stopDuringSettlement(settlementMs: number) {
  const child = spawn(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), path.join("lib", "server", "shutdown.fixture.ts"), String(settlementMs)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    if (line === "ready") child.kill("SIGTERM");
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once("exit", (c, s) => r([c, s])));
  return { lines, code, signal };
}

describe("shutdown on SIGTERM", () => {
  it("stops taking payments, waits for the settlement in flight, then stops the workers, then closes the database", async () => {
    const { lines, code, signal } = await stopDuringSettlement(800);
    expect(lines).toEqual(["ready", "settlement recorded", "intake drained, 0 unfinished, accepting false", "workers stopped", "database closed"]);
    // It still ends as SIGTERM ends a process (128 + 15 through tsx's wrapper), for the platform that sent it.
    expect(signal === "SIGTERM" || code === 143).toBe(true);
  }, 30_000);
});

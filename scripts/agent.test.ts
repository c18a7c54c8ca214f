import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { recordedServer, recordServer } from "@/lib/server/address-record";
import { closedPort, serveRoutes } from "./testing";

// How `npm run agent` finds the shop, and what it says when there is none to buy from. The purchases themselves run
// against the e2e devnet shop (e2e/x402/agent.spec.ts).

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-agent-"));
  dirs.push(dir);
  return dir;
}

async function agent(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/agent.ts", ...args], { env: { ...process.env, ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe("npm run agent: finding the shop", () => {
  it("says how to start the shop when none runs", async () => {
    const port = await closedPort();
    const { code, out } = await agent([], { DATA_DIR: dataDir(), PORT: String(port) });
    expect(code).toBe(1);
    expect(out).toContain(`No shop is running: nothing answers at http://127.0.0.1:${port}`);
    expect(out).toContain("Start it with `npm run dev`");
    const named = await agent(["--url", `http://127.0.0.1:${port}/`], { DATA_DIR: dataDir() });
    expect(named.out).toContain(`No shop answers at http://127.0.0.1:${port}.`);
  });

  it("goes to the address a running shop recorded in its data folder, and tells a shop that is not on the devnet", async () => {
    const shop = await serveRoutes([]); // answers 404 everywhere, as a shop outside devnet mode does /api/dev/devnet
    try {
      const dir = dataDir();
      const forget = recordServer(dir, { url: shop.base, mode: "testnet" });
      // This process stands for the shop's: the record names a live process.
      expect(recordedServer(dir)).toMatchObject({ url: shop.base, pid: process.pid });
      const { code, out } = await agent([], { DATA_DIR: dir, PORT: String(await closedPort()) });
      expect(code).toBe(1);
      expect(out).toContain(`The shop at ${shop.base} is not on the devnet`);
      forget();
    } finally {
      await shop.close();
    }
  });

  it("waits for a shop that is still starting: a first request held while it compiles, then a 503", async () => {
    // As `npm run dev` just started: the connection is accepted at once, the first answer comes once the route is
    // compiled (here after 12 s, past the agent's 10), then the shop answers 503 once while its start completes.
    const asked: number[] = [];
    const shop = http.createServer((req, res) => {
      asked.push(Date.now());
      const answer = () => res.writeHead(asked.length === 1 ? 404 : asked.length === 2 ? 503 : 404).end();
      if (asked.length === 1) setTimeout(answer, 12_000);
      else answer();
    });
    await new Promise<void>((r) => shop.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
      const { code, out } = await agent(["--url", base], { DATA_DIR: dataDir() });
      expect(out).toContain(`The shop at ${base} accepts connections but has not answered yet`);
      // It asked again after its first request timed out, then again after the 503: three requests, one message.
      expect(asked).toHaveLength(3);
      expect(out.match(/waiting for it/g)).toHaveLength(1);
      expect(code).toBe(1);
      expect(out).toContain(`The shop at ${base} is not on the devnet`);
    } finally {
      shop.closeAllConnections();
      await new Promise<void>((r) => shop.close(() => r()));
    }
  }, 60_000);
});

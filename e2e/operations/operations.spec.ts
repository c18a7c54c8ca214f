import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_CRON_SECRET } from "../server-env";

test("GET /api/health answers liveness without credentials, and readiness once the database, chains and loops are up", async ({ request }) => {
  const live = await request.get("/api/health");
  expect(live.status()).toBe(200);
  expect(await live.json()).toMatchObject({ status: "ok", mode: "devnet" });
  expect(live.headers()["cache-control"]).toBe("no-store");

  // The loops pass within seconds of the start; readiness names what it checked.
  await expect
    .poll(async () => (await request.get("/api/health?ready=1")).status(), { timeout: 30_000 })
    .toBe(200);
  const ready = (await (await request.get("/api/health?ready=1")).json()) as { status: string; problems: string[]; checks: Record<string, { ok: boolean }> };
  expect(ready.status).toBe("ready");
  expect(ready.problems).toEqual([]);
  expect(Object.keys(ready.checks)).toEqual(
    expect.arrayContaining(["database", "chain eip155:84530402", "chain solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "loop fulfilment", "loop webhooks", "loop upkeep"]),
  );
});

test("GET /api/cron/tick refuses without its secret and runs one round with it", async ({ request }) => {
  expect((await request.get("/api/cron/tick")).status()).toBe(401);
  expect((await request.get("/api/cron/tick", { headers: { authorization: "Bearer wrong-secret-of-the-same-size!!" } })).status()).toBe(401);
  expect((await request.get("/api/cron/tick", { headers: { authorization: E2E_CRON_SECRET } })).status()).toBe(401);
  const res = await request.get("/api/cron/tick", { headers: { authorization: `Bearer ${E2E_CRON_SECRET}` } });
  expect(res.status()).toBe(200);
  const { round } = (await res.json()) as { round: Record<string, unknown> };
  expect(round).toMatchObject({
    expired_invoices: expect.any(Number),
    settlements: { settled: expect.any(Number), failed: expect.any(Number), open: expect.any(Number) },
    orders: expect.objectContaining({ claimed: expect.any(Number) }),
    refunds: expect.any(Number),
    webhooks: expect.objectContaining({ claimed: expect.any(Number) }),
    errors: {},
    took_ms: expect.any(Number),
  });
});

test("a Vercel-like start without DATABASE_URL is refused with a message that names it", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-vercel-"));
  const env: NodeJS.ProcessEnv = { ...process.env, VERCEL: "1", NETWORK_MODE: "testnet", DATA_DIR: dataDir, NEXT_MANUAL_SIG_HANDLE: "true" };
  delete env.DATABASE_URL;
  delete env.SESSION_SECRET;
  delete env.CRON_SECRET;
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", "0", "-H", "127.0.0.1"], { cwd: path.join(__dirname, "..", ".."), env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  try {
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, output).toBe(1);
    expect(output).toMatch(/cannot start/);
    expect(output).toMatch(/DATABASE_URL: is required on Vercel/);
    expect(output).toMatch(/SESSION_SECRET: is required/);
    expect(output).toMatch(/CRON_SECRET: is required/);
    // Nothing was written where Vercel would refuse it: the data folder given stays empty.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  } finally {
    child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

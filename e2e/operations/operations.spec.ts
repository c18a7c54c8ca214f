import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { launch, portOpen, waitFor } from "../../scripts/process-tree";
import { freePort, startShop } from "../../scripts/shop-server";
import { runAdmin } from "../../scripts/testing";
import { E2E_ADMIN_TOKEN, E2E_CRON_SECRET } from "../server-env";
import { merchantCredentials } from "./run";

test("GET /api/health answers liveness without credentials, and readiness once the database, chains and loops are up (its detail with the admin token)", async ({
  request,
}) => {
  const live = await request.get("/api/health");
  expect(live.status()).toBe(200);
  expect(await live.json()).toMatchObject({ status: "ok", mode: "devnet" });
  expect(live.headers()["cache-control"]).toBe("no-store");

  // The loops pass within seconds of the start; readiness names what it checked, to anyone by name only.
  await expect.poll(async () => (await request.get("/api/health?ready=1")).status(), { timeout: 30_000 }).toBe(200);
  const anyone = (await (await request.get("/api/health?ready=1")).json()) as { checks: Record<string, object>; problems: string[] };
  expect(anyone.problems).toEqual([]);
  expect(anyone.checks.database).toEqual({ ok: true });
  expect(anyone).not.toHaveProperty("gas_wallets");
  // The operator's detail: with the admin token.
  const ready = (await (await request.get("/api/health?ready=1", { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })).json()) as {
    status: string;
    problems: string[];
    warnings: string[];
    checks: Record<string, { ok: boolean }>;
    gas_wallets: { network: string; low: boolean }[];
  };
  expect(ready.status).toBe("ready");
  expect(ready.problems).toEqual([]);
  // The facilitator's gas wallets on each of the four networks, funded on the devnet, and on Ethereum (paid by address
  // only), where the same wallet flushes the invoices' addresses.
  expect(ready.gas_wallets.map((g) => g.network).sort()).toEqual([
    "eip155:1010402",
    "eip155:1370402",
    "eip155:421610402",
    "eip155:84530402",
    "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  ]);
  expect(ready.warnings).toEqual([]);
  expect(Object.keys(ready.checks)).toEqual(
    expect.arrayContaining([
      "database",
      "chain eip155:84530402",
      "chain solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
      "loop fulfilment",
      "loop webhooks",
      "loop upkeep",
    ]),
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

test("a Vercel-like start without DATABASE_URL is refused with a message that names it (npm start, without a warning of its own)", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-vercel-"));
  const env: NodeJS.ProcessEnv = { ...process.env, VERCEL: "1", NETWORK_MODE: "testnet", DATA_DIR: dataDir, NEXT_MANUAL_SIG_HANDLE: "true" };
  delete env.DATABASE_URL;
  delete env.SESSION_SECRET;
  delete env.CRON_SECRET;
  // npm start, as an operator runs it: the standalone server of the build (scripts/start.mjs).
  const child = spawn("npm", ["start", "--", "-p", String(await freePort()), "-H", "127.0.0.1"], {
    cwd: path.join(__dirname, "..", ".."),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
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
    // `next start` would begin with "does not work with output: standalone"; the standalone server warns of nothing.
    expect(output).not.toMatch(/standalone|⚠/);
    // Nothing was written where Vercel would refuse it: the data folder given stays empty.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  } finally {
    child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// Under a process supervisor, which stops it with a SIGTERM to the process it started (npm). Linux (CI): the tree is
// read from /proc.
test("npm start stops as a whole on a SIGTERM to npm: the server and its devnet chains end, and the port closes", async () => {
  // Skipped off Linux: the process tree is read from /proc.
  test.skip(process.platform !== "linux", "the process tree is read from /proc");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-start-"));
  const env: NodeJS.ProcessEnv = { ...process.env, NETWORK_MODE: "devnet", DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
  for (const name of ["DATABASE_URL", "PORT", "ADMIN_TOKEN"]) delete env[name];
  const shop = launch(["start", "--", "-p", String(port), "-H", "127.0.0.1"], { cwd: path.join(__dirname, "..", ".."), env });
  try {
    await waitFor("the shop answers", async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true, 45_000);
    const commands = shop.commands();
    expect(
      commands.some((c) => c.includes("scripts/start.mjs")),
      shop.output(),
    ).toBe(true);
    expect(
      commands.some((c) => c.includes("anvil")),
      "the devnet's chains",
    ).toBe(true);
    await shop.stop();
    expect(await portOpen(port)).toBe(false);
  } finally {
    shop.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("GET /api/metrics is Prometheus text behind the admin token: queue depths, invoices, settlement latency, webhooks", async ({ request }) => {
  expect((await request.get("/api/metrics")).status()).toBe(401);
  const res = await request.get("/api/metrics", { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/plain/);
  const text = await res.text();
  for (const line of [
    /^storefront_queue_depth\{queue="orders"\} \d+$/m,
    /^storefront_queue_depth\{queue="webhooks"\} \d+$/m,
    /^storefront_queue_depth\{queue="settlements"\} \d+$/m,
    /^storefront_invoices_paid \d+$/m,
    /^storefront_webhook_deliveries_failed \d+$/m,
    /^# TYPE storefront_settlement_seconds histogram$/m,
    /^# TYPE storefront_webhook_attempts_total counter$/m,
    /^storefront_process_resident_memory_bytes \d+/m,
  ])
    expect(text).toMatch(line);
});

test("OpenTelemetry traces go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set", async () => {
  // A stand-in OTLP collector on loopback: it records what the shop posts to /v1/traces.
  const posts: string[] = [];
  const collector = http.createServer((req, res) => {
    posts.push(req.url ?? "");
    req.resume();
    req.on("end", () => res.end("{}"));
  });
  await new Promise<void>((ok) => collector.listen(0, "127.0.0.1", ok));
  const { port: collectorPort } = collector.address() as AddressInfo;
  const shop = await startShop({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, OTEL_BSP_SCHEDULE_DELAY: "200" });
  try {
    expect((await fetch(`${shop.baseURL}/api/health`)).status).toBe(200);
    await expect.poll(() => posts.filter((p) => p === "/v1/traces").length, { timeout: 20_000 }).toBeGreaterThan(0);
  } finally {
    await shop.stop();
    collector.close();
  }
});

test("a backup taken while the shop runs restores into a new data folder that shows the same invoices", async ({ request, baseURL }) => {
  // An invoice the backup must hold, made through the merchant API.
  const [auth] = (await merchantCredentials(baseURL!, E2E_ADMIN_TOKEN, 1)).merchantBasic;
  const invoice = await request.post("/api/v2/invoices", {
    headers: { authorization: auth! },
    data: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" },
  });
  expect(invoice.status(), await invoice.text()).toBe(200);
  const invoiceId = ((await invoice.json()) as { meta: { id: string } }).meta.id;

  const backup = await request.post("/api/admin/backup", { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  expect(backup.status()).toBe(200);
  expect(backup.headers()["content-type"]).toBe("application/gzip");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-restore-"));
  try {
    const file = path.join(dir, "shop.tar.gz");
    fs.writeFileSync(file, await backup.body());
    const data = path.join(dir, "data");
    const restore = await runAdmin(["restore", file], data);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/invoice/);
    const env = { ...process.env, DATA_DIR: data, DATABASE_URL: "" };
    const read = spawnSync(process.execPath, ["--import", "tsx", "e2e/operations/read-invoices.ts"], {
      cwd: path.join(__dirname, "..", ".."),
      env,
      encoding: "utf8",
    });
    expect(read.status, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout.trim().split("\n").at(-1)!) as string[]).toContain(invoiceId);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

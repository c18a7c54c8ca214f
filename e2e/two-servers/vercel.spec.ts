import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createDatabase, dropDatabase } from "../../lib/platform/db/create-database";
import { closedPort } from "../../scripts/testing";
import { E2E_ADMIN_TOKEN, E2E_CRON_SECRET } from "../server-env";
import { createInvoice, devnetNetworks, evmBuyer, isEvm, signIn } from "../x402/devnet-client";
import { documentedFetch as fetch } from "../x402/documented";
import { SERVER_A, SHARED_DEVNET_PORT, SHARED_SESSION_SECRET } from "./servers";

// A shop as Vercel runs it (VERCEL=1): no process lives between requests, so no background loop runs. After a payment,
// the paying request's function runs one round of the background work once its answer is sent (`after()`): the codes
// come without waiting for Vercel Cron, which this test never calls. Its database is its own, migrated and seeded by
// `npm run db:migrate` as Vercel's build does (vercel.json); it pays on the shared devnet.

const ROOT = path.join(__dirname, "..", "..");
let shop: ChildProcess | undefined;
let base = "";
let database = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createDatabase(process.env.TEST_DATABASE_URL!, "storefront_e2e_vercel");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VERCEL: "1",
    NETWORK_MODE: "devnet",
    DEVNET_URL: `http://127.0.0.1:${SHARED_DEVNET_PORT}`,
    DATABASE_URL: database,
    SESSION_SECRET: SHARED_SESSION_SECRET,
    CRON_SECRET: E2E_CRON_SECRET,
    ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    NEXT_MANUAL_SIG_HANDLE: "true",
  };
  delete env.DATA_DIR;
  execFileSync(process.execPath, ["--import", "tsx", "scripts/db-migrate.ts"], { cwd: ROOT, env, stdio: "pipe" });
  const port = await closedPort();
  base = `http://127.0.0.1:${port}`;
  shop = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  await expect(async () => expect((await globalThis.fetch(`${base}/api/health`)).status).toBe(200)).toPass({ timeout: 60_000 });
});

test.afterAll(async () => {
  if (shop && shop.exitCode === null) {
    const exited = new Promise((r) => shop!.once("exit", r));
    shop.kill("SIGTERM");
    await exited;
  }
  if (database) await dropDatabase(process.env.TEST_DATABASE_URL!, database);
});

test("on Vercel, a paid invoice's codes come from the round after the payment's answer, without cron", async () => {
  // No loop runs here: readiness says where the background work runs instead (its detail: the operator's).
  const ready = (await (await globalThis.fetch(`${base}/api/health?ready=1`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })).json()) as {
    checks: Record<string, { ok: boolean; detail?: string }>;
  };
  expect(ready.checks.background).toMatchObject({ ok: true, detail: expect.stringContaining("Vercel Cron") });
  expect(Object.keys(ready.checks).filter((k) => k.startsWith("loop "))).toEqual([]);

  const evm = (await devnetNetworks(SERVER_A)).find(isEvm)!;
  const buyer = await evmBuyer(SERVER_A, evm, "20");
  const buyerToken = await signIn(base, buyer.account);
  const invoice = await createInvoice(base, buyerToken, [{ product_id: "test-gift-card-code", package_value: "10" }]);
  const paid = await buyer.pay(`${base}/x402/invoice/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ invoice_id: invoice.invoice_id }),
  });
  expect(paid.status).toBe(200);

  await expect(async () => {
    const res = await fetch(`${base}/x402/invoice/status?invoice_id=${invoice.invoice_id}`, { headers: { "X-Access-Token": buyerToken } });
    const body = (await res.json()) as { status: string; redemption_info?: unknown[] };
    expect(body.status).toBe("complete");
    expect(body.redemption_info).toHaveLength(1);
  }).toPass({ timeout: 20_000, intervals: [500] });
});

import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Address } from "viem";
import { createDatabase, dropDatabase } from "../../lib/platform/db/create-database";
import { chainControl } from "../../test/adversarial/chain-control";
import { freePort } from "../../scripts/shop-server";
import { startNode, type Started } from "../resale/processes";
import { promisify } from "node:util";
import { newMerchant } from "../merchant-api/merchants";
import { E2E_ADMIN_TOKEN } from "../server-env";
import { createInvoice, devnetNetworks, evmBuyer, evmUsdcBalance, isEvm, signIn, type DevnetNetwork } from "../x402/devnet-client";

// A deploy in the middle of refunds. Buyers pay for a product whose supplier fails; the chain holds its blocks back
// while the shop's first refund transfer waits in the pool (sent, not recorded); then the shop is stopped, with SIGTERM
// (a deploy) or SIGKILL (a crash), the chain goes on at 0.5 s blocks, and the shop starts again on the same data.
// Every refund must be paid within 30 s of the restart, and exactly once: before, the claims taken before the stop
// held the refunds for their lease (ten minutes, then one), and after SIGTERM most buyers waited that long.

/** How many buyers, each with one failed order of 10 USDC. */
const BUYERS = 5;
/**
 * The restarted shop pays every refund within this: half of what the issue asks (60 s), and half of a refund claim's
 * lease (REFUND_LOCK_MS), so that a claim left to lapse fails the test.
 */
const REFUNDS_WITHIN_MS = 30_000;

type Kind = "pglite" | "postgres";
/**
 * The stops each kind goes through: both on the embedded database; on PostgreSQL the crash only, whose claims are
 * freed by the gone holder's presence (its SIGTERM hands back by holder, as lib/server/hand-back.db.test.ts shows there).
 */
const STOPS: Record<Kind, readonly ("SIGTERM" | "SIGKILL")[]> = { pglite: ["SIGTERM", "SIGKILL"], postgres: ["SIGKILL"] };
const KINDS: Kind[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

test.describe.configure({ mode: "default" });

let devnet: Started | undefined;
let devnetUrl = "";
const cleanups: (() => Promise<void>)[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  devnetUrl = `http://127.0.0.1:${port}`;
  devnet = await startNode(
    "the devnet",
    ["e2e/devnet.mjs", String(port)],
    { ...process.env, NETWORK_MODE: "devnet", DEVNET_BLOCK_TIME: "0.5" },
    `${devnetUrl}/`,
  );
});
test.afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await devnet?.stop();
});

const log = (kind: Kind, step: string) => console.log(`[restart ${kind} ${new Date().toISOString().slice(11, 23)}] ${step}`);

for (const kind of KINDS) {
  test(`refunds due at a stop are paid once within a minute of the restart (${kind}: ${STOPS[kind].join(", then ")})`, async () => {
    test.setTimeout(300_000);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `storefront-e2e-restart-${kind}-`));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      NEXT_MANUAL_SIG_HANDLE: "true",
      NETWORK_MODE: "devnet",
      DEVNET_URL: devnetUrl,
      ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    };
    for (const name of ["DATABASE_URL", "PUBLIC_ORIGIN"]) delete env[name];
    if (kind === "postgres") {
      const url = await createDatabase(process.env.TEST_DATABASE_URL!, "storefront_e2e_restart");
      cleanups.push(() => dropDatabase(process.env.TEST_DATABASE_URL!, url));
      Object.assign(env, { DATABASE_URL: url, SESSION_SECRET: randomBytes(24).toString("hex") });
    }
    const start = () =>
      startNode(`the shop (${kind})`, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], env, `${origin}/api/health`);

    let shop = await start();
    cleanups.push(() => shop.stop());
    const base = (await devnetNetworks(origin)).find(isEvm)!;
    const payTo = (base as DevnetNetwork & { payTo: Address }).payTo;
    const chain = chainControl(base.rpcUrl);
    let stopMining: (() => void) | undefined;
    cleanups.push(async () => stopMining?.());

    for (const signal of STOPS[kind]) {
      log(kind, `${BUYERS} buyers pay for a failing product`);
      const buyers = await Promise.all(Array.from({ length: BUYERS }, () => evmBuyer(origin, base, "12")));
      const funded = await Promise.all(buyers.map((b) => evmUsdcBalance(base, b.account.address)));
      const invoices = await Promise.all(
        buyers.map(async (b) => {
          const token = await signIn(origin, b.account);
          const { invoice_id } = await createInvoice(origin, token, [{ product_id: "test-gift-card-code-fail", package_value: "10" }]);
          return { id: invoice_id, token };
        }),
      );
      const paid = await Promise.all(
        buyers.map((b, i) =>
          b.pay(`${origin}/x402/invoice/pay`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ invoice_id: invoices[i]!.id }),
          }),
        ),
      );
      expect(paid.map((r) => r.status)).toEqual(buyers.map(() => 200));

      // The chain holds its blocks: the next refund transfer the shop sends waits in the pool, sent and not recorded.
      stopMining?.();
      stopMining = undefined;
      await chain.pauseMining();
      const deadline = Date.now() + 30_000;
      while ((await chain.pooled(payTo)).length === 0) {
        expect(Date.now(), "a refund transfer reaches the pool").toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 50));
      }
      log(kind, `a refund waits in the pool: ${signal}`);
      if (signal === "SIGTERM") await shop.stop();
      else await shop.kill9();
      // Blocks every 0.5 s again, mined by the test from now on (anvil's own interval takes whole seconds).
      stopMining ??= chain.mineEvery(500);

      shop = await start();
      const restarted = Date.now();
      log(kind, "the shop answers again");
      const refunded = async () => {
        const states = await Promise.all(
          invoices.map(async (inv) => {
            const res = await fetch(`${origin}/x402/invoice/status?invoice_id=${inv.id}`, { headers: { "X-Access-Token": inv.token } });
            const body = (await res.json()) as { orders: { status: string; refund?: { transaction: string | null } }[] };
            return body.orders.every((o) => o.status === "refunded" && o.refund?.transaction);
          }),
        );
        return states.filter(Boolean).length;
      };
      await expect.poll(refunded, { timeout: REFUNDS_WITHIN_MS, intervals: [500] }).toBe(BUYERS);
      log(kind, `every refund recorded ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart`);
      expect(Date.now() - restarted).toBeLessThan(REFUNDS_WITHIN_MS);
      // Each buyer has its 10 USDC back once (what it paid, back): a few blocks later, still once.
      await chain.waitBlocks(4);
      expect(await Promise.all(buyers.map((b) => evmUsdcBalance(base, b.account.address)))).toEqual(funded);
    }
  });
}

// The database away for 4 s under load (PostgreSQL stopped as a restart does, then started), the shop left running:
// pages and both APIs answer 503 with Retry-After meanwhile, never 500; every auto_pay invoice that exists is paid;
// the shop serves again without a restart. A PostgreSQL server of the test's own (Debian's postgresql, as root: CI).
const PG_SCRIPT = "scripts/postgres-test-server.sh";
const canStopPostgres = fs.existsSync("/usr/lib/postgresql") && process.getuid?.() === 0;

test("a database restart under load answers 503 with Retry-After on pages and both APIs, never 500", async () => {
  // Skipped where the test cannot own a PostgreSQL server (no Debian postgresql, not root); CI installs it and is root.
  // Skipped where the test cannot stop PostgreSQL (not root, or no Debian postgresql): CI can.
  test.skip(!canStopPostgres, "needs Debian's postgresql and root (CI)");
  test.setTimeout(180_000);
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-outage-pg-"));
  const serverUrl = execFileSync(PG_SCRIPT, ["start", String(await freePort()), pgDir], { encoding: "utf8" }).trim();
  cleanups.push(async () => void execFileSync(PG_SCRIPT, ["stop", pgDir]));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: await createDatabase(serverUrl, "storefront_e2e_outage"),
    SESSION_SECRET: randomBytes(24).toString("hex"),
    PORT: String(port),
    NEXT_MANUAL_SIG_HANDLE: "true",
    NETWORK_MODE: "devnet",
    DEVNET_URL: devnetUrl,
    ADMIN_TOKEN: E2E_ADMIN_TOKEN,
  };
  delete env.PUBLIC_ORIGIN;
  const shop = await startNode(
    "the shop (outage)",
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    env,
    `${origin}/api/health`,
  );
  cleanups.push(() => shop.stop());
  const merchants = await Promise.all([1, 2, 3].map(() => newMerchant(origin, 1_000)));

  // Each kind of caller, in a loop of its own until `running` ends: answers counted by kind and status.
  const statuses = new Map<string, number>();
  const missingRetryAfter: string[] = [];
  let running = true;
  const loop = async (kind: string, pauseMs: number, call: () => Promise<Response | { status: number; headers: Headers }>) => {
    while (running) {
      const res = await call();
      const key = `${kind} ${res.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (res.status === 503 && !res.headers.get("retry-after")) missingRetryAfter.push(key);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const loops = [
    loop("page", 300, () => fetch(`${origin}/`)),
    loop("page", 300, () => fetch(`${origin}/products/test-gift-card-code`)),
    // A sign-in challenge: its nonce is stored before the 402 is answered.
    loop("x402", 300, () => fetch(`${origin}/x402/connect`, { method: "POST" })),
    ...merchants.map((m) =>
      loop("merchant", 500, () =>
        m.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true } }),
      ),
    ),
    ...merchants.map((m) => loop("merchant", 500, () => m.call("/products?limit=1"))),
  ];
  await new Promise((r) => setTimeout(r, 2_000));
  await promisify(execFile)(PG_SCRIPT, ["stop-for", pgDir, "4"]);
  const back = Date.now();
  // Serving again without a restart: every kind answers as before the outage within 15 s.
  await expect
    .poll(
      async () => {
        const [home, challenge, balance] = await Promise.all([
          fetch(`${origin}/`),
          fetch(`${origin}/x402/connect`, { method: "POST" }),
          merchants[0]!.call("/accounts/balance"),
        ]);
        return [home.status, challenge.status, balance.status];
      },
      { timeout: 15_000, intervals: [500] },
    )
    .toEqual([200, 402, 200]);
  console.log(`[outage] serving again ${((Date.now() - back) / 1000).toFixed(1)} s after the database's return`);
  running = false;
  await Promise.all(loops);

  const counts = Object.fromEntries([...statuses].sort());
  console.log(`[outage] answers: ${JSON.stringify(counts)}`);
  expect(
    Object.keys(counts).filter((k) => k.endsWith(" 500")),
    "no 500",
  ).toEqual([]);
  expect(missingRetryAfter, "every 503 carries Retry-After").toEqual([]);
  for (const kind of ["page", "x402", "merchant"]) expect(counts[`${kind} 503`] ?? 0, `${kind} answered 503 while the database was away`).toBeGreaterThan(0);
  // Every auto_pay invoice that exists was paid: none is left unpaid after its error.
  for (const m of merchants) {
    const list = await m.call("/invoices?limit=100");
    const rows = (list.body.data ?? []) as { status: string }[];
    expect(rows.filter((i) => i.status === "unpaid")).toEqual([]);
  }
});

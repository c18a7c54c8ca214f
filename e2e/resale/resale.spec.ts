import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/shop-server";
import { giftCardRow, startStandIn } from "../../lib/supply/testing";
import { connectEvm, X402_CHALLENGE_LOGS } from "../checkout/flow";
import { expect, test } from "../fixtures";
import { E2E_ADMIN_TOKEN, E2E_CRON_SECRET } from "../server-env";
import { installEvmTestWallet } from "../wallets/evm-test-wallet";
import { createInvoice, decodeRequired, devnetNetworks, evmBuyer, evmUsdcBalance, isEvm, signIn } from "../x402/devnet-client";
import { documentedFetch as fetch } from "../x402/documented";
import { startNode, type Started } from "./processes";

// Two shops started here, A upstream of B (UPSTREAM_API_URL), on one devnet of their own: B resells A's catalog and
// buys each paid order from A with its merchant key. B reaches A through a stand-in that, on A's answer to B's
// `POST /api/v2/invoices`, kills B with SIGKILL before B hears it: A has bought, B has not recorded it. B restarts on
// the same embedded database and must finish the order with that same upstream invoice, never a second one.

test.use({ expectedConsoleErrors: [X402_CHALLENGE_LOGS] });

/** A's product that B resells: a $10 gift card. */
const PRODUCT = "resale-card";
/** What A's merchant account (B's) starts with, in US cents. */
const CREDIT_CENTS = 5_000;
/** The shopper's devnet USDC, in atomic units. */
const FUNDED = 20_000_000n;

let devnet: Started | undefined;
let shopA: Started | undefined;
let shopB: Started | undefined;
let killedB: Started | undefined;
let standIn: Awaited<ReturnType<typeof startStandIn>> | undefined;
let dataDirB = "";
let a = "";
let b = "";
let startB: () => Promise<Started>;
let merchant: { id: string; secret: string };
/** The first POST /api/v2/invoices from B: A's answer is held until this settles (B is dead by then). */
let onFirstPurchase: ((answer: { status: number; body: string }) => Promise<void>) | undefined;

/** Where the run stands, on the test's output (a crash test that fails says how far it went). */
const log = (step: string) => console.log(`[resale ${new Date().toISOString().slice(11, 23)}] ${step}`);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  log("starting the devnet and shop A");
  const devnetPort = await freePort();
  const devnetUrl = `http://127.0.0.1:${devnetPort}`;
  const portA = await freePort();
  a = `http://127.0.0.1:${portA}`;
  const portB = await freePort();
  b = `http://127.0.0.1:${portB}`;
  // The devnet and A start together (a shop waits for its DEVNET_URL). A block per transaction: nothing waits a second.
  [devnet, shopA] = await Promise.all([
    startNode("the devnet", ["e2e/devnet.mjs", String(devnetPort)], { ...process.env, NETWORK_MODE: "devnet", DEVNET_BLOCK_TIME: "0" }, `${devnetUrl}/`),
    startNode(
      "shop A",
      ["e2e/server.mjs", String(portA), "pglite"],
      { ...process.env, ADMIN_TOKEN: E2E_ADMIN_TOKEN, NETWORK_MODE: "devnet", DEVNET_URL: devnetUrl, SEED_DEMO_CATALOG: "false" },
      `${a}/api/health`,
    ),
  ]);
  log("the devnet and shop A answer");

  // On A: one product, and a merchant (the reseller B) with a balance.
  const admin = async (p: string, body: unknown) => {
    const res = await globalThis.fetch(`${a}${p}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, `POST ${p}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };
  expect(await admin("/api/admin/catalog/import", { rows: [giftCardRow(PRODUCT, ["10"])] })).toMatchObject({ imported: 1, rejected: [] });
  const m = (await admin("/api/admin/merchants", { name: "Shop B", credit_usd: CREDIT_CENTS / 100 })) as { api_id: string; api_secret: string };
  merchant = { id: m.api_id, secret: m.api_secret };

  // B's way to A. Every request goes through as it is, but for the first purchase's answer (see onFirstPurchase).
  standIn = await startStandIn(a, (r) => {
    const hook = onFirstPurchase;
    if (r.method === "POST" && r.path === "/api/v2/invoices" && hook) {
      onFirstPurchase = undefined;
      return { beforeRelay: hook };
    }
    return "forward";
  });

  // B: `next start` on an embedded database in a folder of this test, which outlives B's processes.
  dataDirB = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-resale-"));
  const envB: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDirB,
    PORT: String(portB),
    NEXT_MANUAL_SIG_HANDLE: "true",
    NETWORK_MODE: "devnet",
    DEVNET_URL: devnetUrl,
    ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    CRON_SECRET: E2E_CRON_SECRET,
    UPSTREAM_API_URL: `${standIn.origin}/api/v2`,
    UPSTREAM_API_ID: merchant.id,
    UPSTREAM_API_SECRET: merchant.secret,
  };
  delete envB.DATABASE_URL;
  startB = () =>
    startNode(
      "shop B",
      ["node_modules/next/dist/bin/next", "start", "-p", String(portB), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"],
      envB,
      `${b}/api/health`,
    );
  shopB = await startB();
  log("shop B answers");
});

// A failure shows what the shops said last (B before and after its crash).
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  if (shopA) await testInfo.attach("shop A output", { body: shopA.output() });
  if (killedB) await testInfo.attach("shop B output, until killed", { body: killedB.output() });
  if (shopB) await testInfo.attach("shop B output", { body: shopB.output() });
});

test.afterAll(async () => {
  await shopB?.stop();
  await standIn?.stop();
  await Promise.all([shopA?.stop(), devnet?.stop()]);
  if (dataDirB) fs.rmSync(dataDirB, { recursive: true, force: true });
});

/** A's view of its merchant B: B's invoices there, and B's balance in US cents. */
async function accountOnA() {
  const headers = { Authorization: `Basic ${Buffer.from(`${merchant.id}:${merchant.secret}`).toString("base64")}` };
  const invoices = (await (await globalThis.fetch(`${a}/api/v2/invoices?limit=50`, { headers })).json()) as {
    data: { id: string; status: string; payment: { method: string; price: number }; orders: { id: string; status: string }[] }[];
  };
  const balance = (await (await globalThis.fetch(`${a}/api/v2/accounts/balance`, { headers })).json()) as { data: { balance: number } };
  const order = async (id: string) =>
    ((await (await globalThis.fetch(`${a}/api/v2/orders/${id}`, { headers })).json()) as { data: { redemption_info?: { code?: string } } }).data;
  return { invoices: invoices.data, balance: balance.data.balance, order };
}

type Status = { status: string; orders: { order_id: string; status: string }[]; redemption_info?: { code?: string }[] };

test("a buyer on B receives A's code exactly once, though B is killed between buying from A and recording it", async ({ page }) => {
  test.setTimeout(240_000);
  if (!shopB || !standIn) throw new Error("the shops did not start");

  // B's catalog is A's (a sync now, beside the one B ran at start).
  await expect(async () => {
    const res = await globalThis.fetch(`${b}/api/admin/supply/sync`, { method: "POST", headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
    expect(await res.json()).toMatchObject({ status: "complete", imported: 1, rejected: [] });
  }).toPass({ timeout: 30_000 });
  log("B synced A's catalog");

  // The shopper: a fresh EVM wallet with devnet USDC, signed in on B, with an invoice for A's card.
  const evm = (await devnetNetworks(b)).find(isEvm)!;
  const buyer = await evmBuyer(b, evm, String(FUNDED / 1_000_000n));
  const token = await signIn(b, buyer.account);
  const invoice = await createInvoice(b, token, [{ product_id: PRODUCT, package_value: "10" }]);
  const price = BigInt(invoice.price_usdc_atomic);
  // A's price to B ($10.00) plus B's margin (5 %).
  expect(price).toBe(10_500_000n);
  const payBody = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ invoice_id: invoice.invoice_id }) };
  const payTo = decodeRequired(await fetch(`${b}/x402/invoice/pay`, payBody)).accepts.find((x) => x.network === evm.network)!.payTo;
  const payToBefore = await evmUsdcBalance(evm, payTo);
  const before = await accountOnA();
  expect(before.invoices).toEqual([]);
  expect(before.balance).toBe(CREDIT_CENTS);

  // The crash: once B has its answer to the payment, B's purchase reaches A, A answers, and B dies before hearing it.
  let paid = () => {};
  const payAnswered = new Promise<void>((resolve) => (paid = resolve));
  const victim = (killedB = shopB);
  const crashed = new Promise<{ status: number; body: string }>((resolve) => {
    onFirstPurchase = async (answer) => {
      await payAnswered;
      await victim.kill9();
      resolve(answer);
    };
  });

  const res = await buyer.pay(`${b}/x402/invoice/pay`, payBody);
  expect(res.status).toBe(200);
  log("the shopper paid B");
  paid();
  const heldAnswer = await crashed;
  expect(victim.child.signalCode).toBe("SIGKILL");
  log("B was killed after A's answer to its purchase");
  // A made and paid the invoice B never heard of.
  expect(heldAnswer.status).toBe(200);
  const upstreamId = (JSON.parse(heldAnswer.body) as { data: { id: string } }).data.id;
  const bought = await accountOnA();
  expect(bought.invoices.map((i) => i.id)).toEqual([upstreamId]);

  // B again, on the same database: it asks A again under the same key, and gets the same invoice.
  shopB = await startB();
  log("B restarted");
  let done: Status | undefined;
  await expect(async () => {
    const s = await fetch(`${b}/x402/invoice/status?invoice_id=${invoice.invoice_id}`, { headers: { "X-Access-Token": token } });
    done = (await s.json()) as Status;
    expect(done.status).toBe("complete");
  }).toPass({ timeout: 180_000, intervals: [1_000] });
  log("B's invoice is complete");

  // One order, delivered, with one code: A's.
  expect(done!.orders).toEqual([expect.objectContaining({ status: "delivered" })]);
  expect(done!.redemption_info).toHaveLength(1);
  const code = done!.redemption_info![0]!.code!;
  const after = await accountOnA();
  expect(after.invoices).toHaveLength(1);
  expect(after.invoices[0]).toMatchObject({ id: upstreamId, status: "complete", payment: { method: "balance", price: 1_000 } });
  expect((await after.order(after.invoices[0]!.orders[0]!.id)).redemption_info?.code).toBe(code);
  expect(code).toMatch(/\w{4,}/);
  // B asked twice (before the crash and after), both times under the order's own key.
  const orderId = done!.orders[0]!.order_id;
  expect(standIn.seen.filter((r) => r.method === "POST" && r.path === "/api/v2/invoices").map((r) => r.idempotencyKey)).toEqual([orderId, orderId]);

  // Money moved once: A debited B's balance by one purchase, the shopper paid B's price once.
  expect(after.balance).toBe(CREDIT_CENTS - 1_000);
  expect(await evmUsdcBalance(evm, buyer.account.address)).toBe(FUNDED - price);
  expect(await evmUsdcBalance(evm, payTo)).toBe(payToBefore + price);

  // The shopper reads the code on B's invoice page, with the wallet that paid.
  const rpc = Object.fromEntries((await devnetNetworks(b)).filter(isEvm).map((n) => [Number(n.network.split(":")[1]), n.rpcUrl])) as Record<number, string>;
  await installEvmTestWallet(page, buyer.account, rpc, Number(evm.network.split(":")[1]));
  await page.goto(`${b}/invoices/${invoice.invoice_id}`);
  await connectEvm(page);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toHaveCount(1);
  log("the code is on B's invoice page");
});

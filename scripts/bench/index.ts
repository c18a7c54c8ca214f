// `npm run bench`: every benchmark of the shop against a fresh production build, each figure printed beside a bare
// Next.js route handler measured in the same run on the same machine (these machines are noisy: only the ratio
// travels). The shop runs on the devnet with BENCHMARK_LIMITS=1 (every rate limit raised a thousandfold, still
// counted; refused outside the devnet), so that no figure is cut off by a 429.
//
//   npm run bench                     all of them (build first: `npm run bench` does it), then docs/performance.md
//                                     rewritten with this run's figures
//   npm run bench -- catalog pages    some of them: catalog, x402, checkout, settlement, pages, addresses (printed only)
//
// BENCH_SECONDS (default 5) is how long each throughput load runs, BENCH_SOAK_SECONDS (default 60) the mixed load
// after which the server's memory is read (300 for five minutes), BENCH_NODE_OPTIONS the shop's
// NODE_OPTIONS, SHOP_LOG a file for the shop's output. The PostgreSQL figures need BENCH_DATABASE_URL (a server to
// create a database on) or, as root with Debian's postgresql, start their own server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/chromium";
import { BROWSE_PAGES, CART_LINE, measurePageJs } from "../../e2e/js-budget";
import { startShop, type RunningShop } from "../shop-server";
import { devnetBuyer } from "../x402-buyer";
import { interleaved, load, percentile, throughputLine, timeToFirstByte, type Figures } from "./load";
import { createDatabase } from "../../lib/platform/db/create-database";
import { IMPORT_BODY_LIMIT } from "../../lib/api/admin/wire";
import { startDevnetProcess } from "../devnet-process";
import { cpuMs, residentMb, startBareRoute, startPostgres } from "./processes";
import { performanceMarkdown, type Figure, type Value } from "./figures";
import { addresses } from "./addresses";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const CLIENTS = 8;
const ADMIN_TOKEN = `adm_bench_${Date.now()}_0123456789abcdef`;
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";
const BENCH_ENV = {
  BENCHMARK_LIMITS: "1",
  ADMIN_TOKEN,
  SESSION_SECRET,
  // The shop's Node.js options, e.g. --max-old-space-size=256 to see the memory a capped heap keeps.
  ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
};

const SECTIONS = ["catalog", "x402", "checkout", "settlement", "pages", "addresses"] as const;
type Section = (typeof SECTIONS)[number];

type Bare = { url: string; pid: number | undefined; figures(): Promise<Figures> };

// What the run measured, for docs/performance.md (written at the end of a full run).
const PERFORMANCE_DOC = path.join(import.meta.dirname, "..", "..", "docs", "performance.md");
const measured: Figure[] = [];
const note = (table: string, column: string, row: string, value: Value) => measured.push({ table, column, row, value });
const PGLITE = "PGlite (embedded)";
const CHECKOUT = "Paid calls and checkout on the devnet (a block a second)";

async function main() {
  const asked = process.argv.slice(2).filter((a) => a !== "--");
  for (const a of asked) if (!(SECTIONS as readonly string[]).includes(a)) throw new Error(`Unknown benchmark ${a}: choose from ${SECTIONS.join(", ")}`);
  const run = (s: Section) => asked.length === 0 || asked.includes(s);

  const date = new Date().toISOString().slice(0, 10);
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  console.log(`x402 Storefront benchmarks, ${date}, ${machine}`);
  console.log(`${CLIENTS} clients, ${SECONDS} s per load; the bare route is a Next.js route handler answering 50 products as JSON, about the shop's size.\n`);
  const bareServer = await startBareRoute();
  const bare: Bare = { url: bareServer.url, pid: bareServer.pid, figures: () => load(() => fetch(bareServer.url), { clients: CLIENTS, seconds: SECONDS }) };
  // One PostgreSQL server for the sections that measure on it too, started when the first asks for it.
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  const postgresDatabase = async (name: string): Promise<string | null> => {
    postgres ??= await startPostgres();
    if (!postgres) console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL, or run as root with Debian's postgresql installed)\n");
    return postgres && createDatabase(postgres.url, name);
  };
  try {
    if (run("catalog")) {
      await withShop({}, (shop) => catalog(PGLITE, shop, bare));
      const url = await postgresDatabase("storefront_bench");
      if (url) await withShop({ DATABASE_URL: url }, (shop) => catalog("PostgreSQL", shop, bare));
    }
    if (run("x402")) await withShop({}, (shop) => x402(shop));
    if (run("checkout")) await withShop({}, (shop) => checkout(shop, bare));
    if (run("settlement")) {
      await withShop({ DEVNET_BLOCK_TIME: "0" }, (shop) => settlement(PGLITE, [shop], bare));
      // The same on PostgreSQL (its server on the same two cores as the shop, the chain and the payers).
      const url = await postgresDatabase("storefront_bench_settlement");
      if (url) await withShop({ DEVNET_BLOCK_TIME: "0", DATABASE_URL: url }, (shop) => settlement("PostgreSQL", [shop], bare));
      // Two shop servers on one PostgreSQL database and one devnet (`npm run devnet`), the payers shared between them.
      const shared = await postgresDatabase("storefront_bench_settlement_two");
      if (shared)
        await withDevnet((devnetUrl) =>
          withShops(2, { DEVNET_URL: devnetUrl, DATABASE_URL: shared }, (shops) => settlement("PostgreSQL, two servers", shops, bare)),
        );
    }
    if (run("pages")) await withShop({}, (shop) => pages(shop));
    if (run("addresses")) {
      // The bare route's CPU for a request, beside the watcher's for a round.
      const before = cpuMs(bare.pid);
      await Promise.all(Array.from({ length: 100 }, async () => (await fetch(bare.url)).arrayBuffer()));
      await addresses(note, ((cpuMs(bare.pid) ?? NaN) - (before ?? NaN)) / 100);
    }
    // A full run replaces the figures of the last; some benchmarks alone would leave the others out.
    if (asked.length === 0) {
      const settings = [
        `${CLIENTS} clients unless said`,
        `BENCH_SECONDS=${SECONDS}`,
        `BENCH_SOAK_SECONDS=${SOAK_SECONDS}`,
        ...(process.env.BENCH_NODE_OPTIONS ? [`BENCH_NODE_OPTIONS=${process.env.BENCH_NODE_OPTIONS}`] : []),
      ].join(", ");
      fs.writeFileSync(PERFORMANCE_DOC, performanceMarkdown({ date, machine, settings, figures: measured }));
      console.log(`Figures written to ${path.relative(process.cwd(), PERFORMANCE_DOC)}.`);
    }
  } finally {
    await bareServer.stop();
    await postgres?.stop();
  }
}

async function withShop(env: Record<string, string>, body: (shop: RunningShop) => Promise<void>) {
  await withShops(1, env, ([shop]) => body(shop!));
}

/** Several shop servers started together with the same environment (a shared database and devnet). */
async function withShops(count: number, env: Record<string, string>, body: (shops: RunningShop[]) => Promise<void>) {
  const shops = await Promise.all(Array.from({ length: count }, () => startShop({ ...BENCH_ENV, ...env })));
  try {
    await body(shops);
  } finally {
    await Promise.all(shops.map((s) => s.stop()));
  }
}

/** `npm run devnet` on a free port and a fresh folder, mining at once until a benchmark sets its interval. */
async function withDevnet(body: (url: string) => Promise<void>) {
  const devnet = await startDevnetProcess({ blockTime: 0 });
  try {
    await body(devnet.url);
  } finally {
    await devnet.stop();
  }
}

/** The catalog under load: the merchant API's product list and token search beside the bare route, pages' first byte, memory. */
async function catalog(label: string, shop: RunningShop, bare: Bare) {
  const base = shop.baseURL;
  const created = await fetch(`${base}/api/admin/merchants`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Benchmark", credit_usd: 100_000 }),
  });
  if (!created.ok) throw new Error(`admin API answered ${created.status}: ${await created.text()}`);
  const merchant = { Authorization: `Bearer ${((await created.json()) as { api_token: string }).api_token}` };
  const buyer = await devnetBuyer(base, "10");
  const agent = { "X-Access-Token": await buyer.signIn() };
  const queries = ["steam", "amazon", "japan", "netflix", "google play", "uber", "europe", "playstation"];
  const productList = (i: number) => fetch(`${base}/api/v2/products?limit=50&start=${(i % 10) * 50}`, { headers: merchant });
  const tokenSearch = (i: number) => fetch(`${base}/x402/gift-cards/search?q=${encodeURIComponent(queries[i % queries.length]!)}`, { headers: agent });

  const kb = async (res: Promise<Response>) => `${((await (await res).text()).length / 1024).toFixed(0)} KB`;
  const [listKb, bareKb] = [await kb(productList(0)), await kb(fetch(bare.url))];
  console.log(`Catalog on ${label} (50 products: ${listKb} from the shop, ${bareKb} from the bare route):`);
  const table = "Catalog under load";
  note(table, label, "50 products' answer", { text: `${listKb} (bare route: ${bareKb})` });
  // Each figure beside the bare route's, the loads taken in turns a second at a time (see `interleaved`).
  const bareCall = () => fetch(bare.url);
  const [baseline, list, search] = await interleaved([bareCall, productList, tokenSearch], { clients: CLIENTS, seconds: SECONDS });
  console.log(throughputLine("bare route handler (GET /products, 50 items)", baseline!));
  console.log(throughputLine("GET /api/v2/products?limit=50", list!, baseline));
  console.log(throughputLine("token-authenticated /x402/gift-cards/search", search!, baseline));
  note(table, label, "bare route handler, 50 products", { load: baseline! });
  note(table, label, "`GET /api/v2/products?limit=50`", { load: list!, bare: baseline });
  note(table, label, "token-authenticated `/x402/gift-cards/search`", { load: search!, bare: baseline });
  // Latency without queueing: one client at a time (with 8 clients on 2 cores, every request waits for the others).
  const [bareAlone, listAlone, searchAlone] = await interleaved([bareCall, productList, tokenSearch], { clients: 1, seconds: SECONDS });
  console.log(throughputLine("one client: bare route handler", bareAlone!));
  console.log(throughputLine("one client: GET /api/v2/products?limit=50", listAlone!, bareAlone));
  console.log(throughputLine("one client: token-authenticated search", searchAlone!, bareAlone));
  note(table, label, "one client: bare route handler", { load: bareAlone! });
  note(table, label, "one client: `GET /api/v2/products?limit=50`", { load: listAlone!, bare: bareAlone });
  note(table, label, "one client: token search", { load: searchAlone!, bare: bareAlone });
  for (const page of ["/products/amazon-us", "/search?q=steam"]) {
    const t = await timeToFirstByte(base + page, 40);
    console.log(`  time to first byte ${page.padEnd(25)} p50 ${t.p50.toFixed(1)} ms   p95 ${t.p95.toFixed(1)} ms`);
    note(table, label, `time to first byte, \`${page}\``, { times: t, unit: "ms" });
  }
  // Memory after a longer mixed load: both routes at once, half the clients each.
  await load((i) => (i % 2 === 0 ? productList(i) : tokenSearch(i)), { clients: CLIENTS, seconds: SOAK_SECONDS });
  const mb = (n: number | undefined) => (n === undefined ? "unknown" : `${n.toFixed(0)} MB resident`);
  const soaked = `${mb(residentMb(shop.pid))} (the bare route's server: ${mb(residentMb(bare.pid))})`;
  console.log(`  server memory after ${SOAK_SECONDS} s of both loads: ${soaked}`);
  note(table, label, `server memory after ${SOAK_SECONDS} s of both loads`, { text: soaked });
  // The largest body the shop takes, under the product list's load: the heap's ceiling must leave room for it.
  const body = bulkCatalog(IMPORT_BODY_LIMIT);
  const started = performance.now();
  const [imported] = await Promise.all([
    fetch(`${base}/api/admin/catalog/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body,
    }),
    load(productList, { clients: 4, seconds: 3 }),
  ]);
  if (!imported.ok) throw new Error(`the catalog import answered ${imported.status}: ${(await imported.text()).slice(0, 300)}`);
  const report = (await imported.json()) as { imported: number };
  const importRow = `a ${(body.length / 2 ** 20).toFixed(1)} MB catalog import (${report.imported} products) beside the product list's load`;
  const importTook = `${((performance.now() - started) / 1000).toFixed(1)} s, then ${mb(residentMb(shop.pid))}`;
  console.log(`  ${importRow}: ${importTook}\n`);
  note(table, label, importRow, { text: importTook });
}

/** A catalog import body of gift cards just under `limit` bytes. */
function bulkCatalog(limit: number): string {
  const product = (i: number) =>
    JSON.stringify({
      slug: `bench-card-${i}`,
      name: `Bench Card ${i}`,
      kind: "gift_card",
      brand: `Bench Brand ${i % 300}`,
      country: "US",
      currency: "USD",
      categories: ["shopping"],
      description: "A gift card for the benchmark's import. ".repeat(30),
      redemptionInstructions: "Enter the code at checkout. ".repeat(10),
      packages: [{ value: "10" }, { value: "25" }, { value: "50" }, { value: "100" }],
    });
  const rows: string[] = [];
  let size = '{"rows":[]}'.length;
  for (let i = 0; ; i++) {
    const row = product(i);
    if (size + row.length + 1 > limit) break;
    rows.push(row);
    size += row.length + 1;
  }
  return `{"rows":[${rows.join(",")}]}`;
}

/** A paid micro-fee call from an x402 client: the 402, then the paid retry with verification and settlement on chain. */
async function x402(shop: RunningShop) {
  const buyer = await devnetBuyer(shop.baseURL, "10");
  const times: number[] = [];
  for (let i = 0; i < 43; i++) {
    const t = performance.now();
    const res = await buyer.pay(`${shop.baseURL}/x402/gift-cards/search?q=steam`);
    if (res.status !== 200) throw new Error(`paid call answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    if (i >= 3) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`x402 paid micro-fee call (402 + paid retry + settlement on ${buyer.network}, a block a second), 40 calls:`);
  const t = { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
  console.log(`  p50 ${t.p50.toFixed(1)} ms   p95 ${t.p95.toFixed(1)} ms   max ${t.max.toFixed(1)} ms\n`);
  note(CHECKOUT, PGLITE, "a paid micro-fee call (402, paid retry, settlement), 40 calls", { times: t, unit: "ms" });
}

/** From payment to codes, and how many invoices a session token creates per second (beside the bare route). */
async function checkout(shop: RunningShop, bare: Bare) {
  const base = shop.baseURL;
  const json = { "Content-Type": "application/json" };
  const buyer = await devnetBuyer(base, "1000");
  const auth = { ...json, "X-Access-Token": await buyer.signIn() };
  const cart = JSON.stringify({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] });
  const toCodes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const createdRes = await fetch(`${base}/x402/invoice/create`, { method: "POST", headers: auth, body: cart });
    if (createdRes.status !== 200) throw new Error(`create answered ${createdRes.status}: ${await createdRes.text()}`);
    const { invoice_id } = (await createdRes.json()) as { invoice_id: string };
    const t = performance.now();
    const paid = await buyer.pay(`${base}/x402/invoice/pay`, { method: "POST", headers: json, body: JSON.stringify({ invoice_id }) });
    if (paid.status !== 200) throw new Error(`pay answered ${paid.status}: ${await paid.text()}`);
    for (;;) {
      const s = (await (await fetch(`${base}/x402/invoice/status?invoice_id=${invoice_id}`, { headers: auth })).json()) as { redemption_info?: unknown[] };
      if (s.redemption_info?.length) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    toCodes.push(performance.now() - t);
  }
  toCodes.sort((a, b) => a - b);
  console.log("Checkout:");
  const t = { p50: percentile(toCodes, 50), p95: percentile(toCodes, 95) };
  console.log(`  payment to codes (pay with settlement, then status until codes), 20 purchases: p50 ${t.p50.toFixed(0)} ms   p95 ${t.p95.toFixed(0)} ms`);
  note(CHECKOUT, PGLITE, "payment to codes (pay, then status until codes), 20 purchases", { times: t, unit: "ms" });
  const createInvoice = () => fetch(`${base}/x402/invoice/create`, { method: "POST", headers: auth, body: cart });
  const [baseline, create] = await interleaved([() => fetch(bare.url), createInvoice], { clients: CLIENTS, seconds: SECONDS });
  console.log(throughputLine("bare route handler (GET /products, 50 items)", baseline!));
  console.log(throughputLine("POST /x402/invoice/create (session token)", create!, baseline));
  note(CHECKOUT, PGLITE, "`POST /x402/invoice/create` with a session token", { load: create!, bare: baseline });
  console.log();
}

/** 1, 10, 50 and 100 wallets paying a micro-fee at the same moment on a chain that mines a block a second. */
async function settlement(label: string, shops: RunningShop[], bare: Bare) {
  const base = shops[0]!.baseURL;
  // Payer i pays at server i mod n: with several servers, each takes its share of every round.
  const at = (i: number) => `${shops[i % shops.length]!.baseURL}/x402/checkout/info`;
  const { networks } = (await (await fetch(`${base}/api/dev/devnet`)).json()) as { networks: { network: string; rpcUrl: string }[] };
  const evm = networks.find((n) => n.network.startsWith("eip155:"))!;
  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(evm.rpcUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  const blockNumber = async () => Number(await rpc("eth_blockNumber", []));
  // Every payer is funded first, while the chain still mines at once. Each payer's fetch notes when its paid retry
  // (the request that carries the payment) leaves, so that the time from payment to settled answer is known.
  const fundedClient = async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const res = await fetch(`${base}/api/dev/faucet`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ network: evm.network, address: account.address, amount: "1" }),
    });
    if (!res.ok) throw new Error(`faucet: ${res.status}`);
    return new x402Client().register(evm.network as `${string}:${string}`, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
  };
  const rounds = [];
  for (const n of [1, 10, 50, 100]) {
    const payers = [];
    for (let i = 0; i < n; i++) {
      const client = await fundedClient();
      const payer = { paidAt: 0, pay: (url: string): Promise<Response> => Promise.reject(new Error(url)) };
      const noting: typeof fetch = (input, init) => {
        if (input instanceof Request && input.headers.has("payment-signature")) payer.paidAt = performance.now();
        return fetch(input, init);
      };
      payer.pay = wrapFetchWithPayment(noting, client);
      payers.push(payer);
    }
    rounds.push({ n, payers });
  }
  const presigning: x402HTTPClient[] = [];
  for (let i = 0; i < 100; i++) presigning.push(new x402HTTPClient(await fundedClient()));
  for (let i = 0; i < shops.length; i++) await rounds[0]!.payers[0]!.pay(at(i));
  const baseline = await bare.figures();
  await rpc("evm_setIntervalMining", [1]);
  await rpc("evm_setAutomine", [false]);
  console.log(`x402 settlements on ${evm.network}, a block every second (1 block = 1 s), the shop on ${label}:`);
  console.log(throughputLine("bare route handler (GET /products, 50 items)", baseline));
  const table = "Settlements, a block a second";
  note(table, label, "bare route handler, 50 products (alone, before the rounds)", { load: baseline });
  for (const { n, payers } of rounds) {
    const started = performance.now();
    const times = await Promise.all(
      payers.map(async (payer, i) => {
        const res = await payer.pay(at(i));
        if (res.status !== 200) throw new Error(`a paid call answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        if (!res.headers.get("payment-response")) throw new Error("a paid call carried no PAYMENT-RESPONSE");
        return { all: performance.now() - started, fromPayment: performance.now() - payer.paidAt };
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const all = times.map((t) => t.all / 1000).sort((a, b) => a - b);
    const fromPayment = times.map((t) => t.fromPayment / 1000).sort((a, b) => a - b);
    const t = { p50: percentile(fromPayment, 50), p95: percentile(fromPayment, 95), max: fromPayment.at(-1)! };
    console.log(
      `  ${String(n).padStart(3)} payer(s) at once: ${(n / elapsed).toFixed(1).padStart(6)} settlements/s, all settled in ${elapsed.toFixed(1)} blocks (p50 ${percentile(all, 50).toFixed(1)});` +
        ` from payment to settled answer p50 ${t.p50.toFixed(1)}, p95 ${t.p95.toFixed(1)}, max ${t.max.toFixed(1)} blocks`,
    );
    note(table, label, `${n} ${n === 1 ? "payer" : "payers"} at once: from payment to settled answer`, { times: t, unit: "blocks" });
    if (n === 100) note(table, label, "100 payers at once: settlements a second", { text: (n / elapsed).toFixed(1) });
  }
  // 100 payments that arrive at the same moment: each signed beforehand (after its own 402), then all sent at once,
  // so that the time to each settled answer is the shop's and the chain's alone (above, the 100 payers' own signing in
  // this one process delays some of their payments' departure after their clock started).
  const signed = await Promise.all(
    presigning.map(async (http, i) => {
      const url = at(i);
      const res = await fetch(url);
      if (res.status !== 402) throw new Error(`an unpaid call answered ${res.status}`);
      const body: unknown = await res.json().catch(() => undefined);
      return {
        url,
        headers: http.encodePaymentSignatureHeader(await http.createPaymentPayload(http.getPaymentRequiredResponse((name) => res.headers.get(name), body))),
      };
    }),
  );
  const before = await blockNumber();
  // The CPU time the servers spend on them, beside the bare route's for as many requests arriving at once: the shop is
  // the bound when its CPU for the burst is about the time the chain gives (a block, or a block per core).
  const bareCpuBefore = cpuMs(bare.pid);
  await Promise.all(Array.from({ length: 100 }, async () => (await fetch(bare.url)).arrayBuffer()));
  const bareCpu = (cpuMs(bare.pid) ?? NaN) - (bareCpuBefore ?? NaN);
  const cpuBefore = shops.map((shop) => cpuMs(shop.pid));
  const sentAt = performance.now();
  const settled = await Promise.all(
    signed.map(async ({ url, headers }) => {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`a paid call answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      if (!res.headers.get("payment-response")) throw new Error("a paid call carried no PAYMENT-RESPONSE");
      return (performance.now() - sentAt) / 1000;
    }),
  );
  settled.sort((a, b) => a - b);
  const shopCpu = shops.reduce((sum, shop, i) => sum + (cpuMs(shop.pid) ?? NaN) - (cpuBefore[i] ?? NaN), 0);
  // Where the chain put them: nothing else is sent meanwhile, so the blocks mined since hold these transactions only.
  const perBlock: number[] = [];
  const after = await blockNumber();
  for (let n = before + 1; n <= after; n++) {
    const block = (await rpc("eth_getBlockByNumber", [`0x${n.toString(16)}`, false])) as { transactions: string[] };
    perBlock.push(block.transactions.length);
  }
  while (perBlock.at(-1) === 0) perBlock.pop();
  console.log(
    `  100 payments arriving at once (signed beforehand): each settled answer after p50 ${percentile(settled, 50).toFixed(1)}, p95 ${percentile(settled, 95).toFixed(1)}, the last ${settled.at(-1)!.toFixed(1)} blocks;` +
      ` their transactions in the blocks after their arrival: ${perBlock.join(", ")}`,
  );
  console.log(
    `  server CPU for those 100 payments: ${(shopCpu / 1000).toFixed(2)} s on ${shops.length} server(s), ${(shopCpu / 100).toFixed(1)} ms a payment;` +
      ` the bare route's for 100 requests at once: ${(bareCpu / 1000).toFixed(2)} s, ${(bareCpu / 100).toFixed(1)} ms a request`,
  );
  const presigned = { p50: percentile(settled, 50), p95: percentile(settled, 95), max: settled.at(-1)! };
  note(table, label, "100 payments arriving at once (signed beforehand): each settled answer", { times: presigned, unit: "blocks" });
  note(table, label, "their transactions, block by block after their arrival", { text: perBlock.join(", ") });
  note(table, label, "server CPU a payment (bare route: a request)", { cpuMs: shopCpu / 100, bareCpuMs: bareCpu / 100 });
  console.log();
}

/** The compressed JavaScript each page loads: browse pages, and the cart with an item before a wallet is chosen. */
async function pages(shop: RunningShop) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    console.log("JavaScript per page (gzip):");
    for (const url of [...BROWSE_PAGES, "/cart"]) {
      const context = await browser.newContext();
      // A cart with one item, as a shopper arrives at it (the cart lives in the browser's storage).
      await context.addInitScript((line) => window.localStorage.setItem("storefront.cart.v1", JSON.stringify([line])), CART_LINE);
      const page = await context.newPage();
      const m = await measurePageJs(page, shop.baseURL + url);
      console.log(`  ${url.padEnd(28)} ${String(m.files).padStart(3)} files ${m.gzipKb.toFixed(1).padStart(7)} KB`);
      note("JavaScript per page (gzip)", "JavaScript", `\`${url}\`${url === "/cart" ? ", one item, before a wallet family is chosen" : ""}`, {
        text: `${m.gzipKb.toFixed(0)} KB in ${m.files} files`,
      });
      await context.close();
    }
    console.log();
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

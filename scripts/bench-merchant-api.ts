// Prints merchant API figures on this machine, against the production build on the embedded database:
//  - GET /api/v2/products (a page of 50 whole products), with several concurrent clients;
//  - POST /api/v2/invoices paid from the balance (auto_pay), with several concurrent clients.
// Requests per second and p50/p95 latency. `npm run build && npm run bench:merchant`
// (or E2E_BASE_URL=http://localhost:3000 ADMIN_TOKEN=… to measure a running shop).
import { startShop } from "./shop-server";
import { percentile as pct } from "./x402-buyer";

const SECONDS = 5;
const CLIENTS = 8;
/** Enough credentials that neither load reaches a per-credential limit in SECONDS. */
const MERCHANTS = 60;

async function load(label: string, call: (i: number) => Promise<Response>, expected: number) {
  let done = 0;
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; performance.now() < until; i += CLIENTS) {
        const t = performance.now();
        const res = await call(i);
        await res.arrayBuffer();
        if (res.status !== expected) throw new Error(`${label} answered ${res.status}`);
        latencies.push(performance.now() - t);
        done++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  console.log(`${label}, ${CLIENTS} clients for ${SECONDS} s:`);
  console.log(`  ${(done / SECONDS).toFixed(0)} requests/s   p50 ${pct(latencies, 50).toFixed(1)} ms   p95 ${pct(latencies, 95).toFixed(1)} ms`);
}

async function main() {
  const external = process.env.E2E_BASE_URL;
  process.env.ADMIN_TOKEN ??= `adm_bench_${Date.now()}_0123456789abcdef`;
  const shop = external ? { baseURL: external, stop: async () => {} } : await startShop();
  try {
    const base = shop.baseURL;
    // The limits are per credential (60 product pages a minute, 60 invoices per 10 minutes): the load is spread over
    // many merchants, so that the figures measure the work behind the limits, not 429 answers.
    const tokens: string[] = [];
    for (let i = 0; i < MERCHANTS; i++) {
      const created = await fetch(`${base}/api/admin/merchants`, {
        method: "POST",
        headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Benchmark ${i}`, credit_usd: 100_000 }),
      });
      if (!created.ok) throw new Error(`admin API answered ${created.status}: ${await created.text()}`);
      tokens.push(((await created.json()) as { api_token: string }).api_token);
    }
    let turn = 0;
    const auth = () => ({ Authorization: `Bearer ${tokens[turn++ % tokens.length]}` });

    await load("GET /api/v2/products?limit=50", (i) => fetch(`${base}/api/v2/products?limit=50&start=${(i % 10) * 50}`, { headers: auth() }), 200);
    turn = 0;
    const body = JSON.stringify({ products: [{ product_id: "steam-us", value: 10 }], payment_method: "balance", auto_pay: true });
    await load(
      "POST /api/v2/invoices (balance, auto_pay)",
      () => fetch(`${base}/api/v2/invoices`, { method: "POST", headers: { ...auth(), "Content-Type": "application/json" }, body }),
      200,
    );
  } finally {
    await shop.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

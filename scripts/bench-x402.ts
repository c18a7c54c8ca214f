// Prints x402 figures on this machine, against the production build on its local chains:
//  - latency of a paid micro-fee call: the 402, then the paid retry with verification and on-chain settlement (p50/p95);
//  - throughput of token-authenticated search (no payment), with a few concurrent clients.
// `npm run build && npm run bench:x402` (or E2E_BASE_URL=http://localhost:3000 to measure a running shop).
import { startShop } from "./shop-server";
import { devnetBuyer, percentile as pct } from "./x402-buyer";

const PAID_CALLS = 40;
const SEARCH_SECONDS = 5;
const SEARCH_CLIENTS = 8;

async function main() {
  const external = process.env.E2E_BASE_URL;
  const shop = external ? { baseURL: external, stop: async () => {} } : await startShop();
  try {
    const base = shop.baseURL;
    const buyer = await devnetBuyer(base, "10");
    const { pay } = buyer;

    const times: number[] = [];
    for (let i = 0; i < PAID_CALLS + 3; i++) {
      const t = performance.now();
      const res = await pay(`${base}/x402/gift-cards/search?q=steam`);
      if (res.status !== 200) throw new Error(`paid call answered ${res.status}`);
      await res.arrayBuffer();
      if (i >= 3) times.push(performance.now() - t); // the first calls warm up the route
    }
    times.sort((a, b) => a - b);
    console.log(`paid micro-fee call (402 + paid retry + settlement on ${buyer.network}), ${PAID_CALLS} calls:`);
    console.log(`  p50 ${pct(times, 50).toFixed(1)} ms   p95 ${pct(times, 95).toFixed(1)} ms   max ${times.at(-1)!.toFixed(1)} ms`);

    const token = await buyer.signIn();

    const queries = ["steam", "amazon", "japan", "netflix", "google play", "uber", "europe", "playstation"];
    let done = 0;
    const latencies: number[] = [];
    const until = performance.now() + SEARCH_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: SEARCH_CLIENTS }, async (_, c) => {
        for (let i = c; performance.now() < until; i++) {
          const t = performance.now();
          const res = await fetch(`${base}/x402/gift-cards/search?q=${encodeURIComponent(queries[i % queries.length]!)}`, {
            headers: { "X-Access-Token": token },
          });
          if (res.status !== 200) throw new Error(`token search answered ${res.status}`);
          await res.arrayBuffer();
          latencies.push(performance.now() - t);
          done++;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    console.log(`token-authenticated search, ${SEARCH_CLIENTS} clients for ${SEARCH_SECONDS} s:`);
    console.log(`  ${(done / SEARCH_SECONDS).toFixed(0)} requests/s   p50 ${pct(latencies, 50).toFixed(1)} ms   p95 ${pct(latencies, 95).toFixed(1)} ms`);
  } finally {
    await shop.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

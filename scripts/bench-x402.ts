// Prints x402 figures on this machine, against the production build on its local chains:
//  - latency of a paid micro-fee call: the 402, then the paid retry with verification and on-chain settlement (p50/p95);
//  - throughput of token-authenticated search (no payment), with a few concurrent clients.
// `npm run build && npm run bench:x402` (or E2E_BASE_URL=http://localhost:3000 to measure a running shop).
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startShop } from "./shop-server";

const PAID_CALLS = 40;
const SEARCH_SECONDS = 5;
const SEARCH_CLIENTS = 8;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  const external = process.env.E2E_BASE_URL;
  const shop = external ? { baseURL: external, stop: async () => {} } : await startShop();
  try {
    const base = shop.baseURL;
    const { networks } = (await (await fetch(`${base}/api/dev/devnet`)).json()) as { networks: { network: string }[] };
    const evm = networks.find((n) => n.network.startsWith("eip155:"))!;
    const account = privateKeyToAccount(generatePrivateKey());
    await fetch(`${base}/api/dev/faucet`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ network: evm.network, address: account.address, amount: "10" }),
    });
    const client = new x402Client().register(evm.network as `${string}:${string}`, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
    const pay = wrapFetchWithPayment(fetch, client);

    const times: number[] = [];
    for (let i = 0; i < PAID_CALLS + 3; i++) {
      const t = performance.now();
      const res = await pay(`${base}/x402/gift-cards/search?q=steam`);
      if (res.status !== 200) throw new Error(`paid call answered ${res.status}`);
      await res.arrayBuffer();
      if (i >= 3) times.push(performance.now() - t); // the first calls warm up the route
    }
    times.sort((a, b) => a - b);
    console.log(`paid micro-fee call (402 + paid retry + settlement on ${evm.network}), ${PAID_CALLS} calls:`);
    console.log(`  p50 ${pct(times, 50).toFixed(1)} ms   p95 ${pct(times, 95).toFixed(1)} ms   max ${times.at(-1)!.toFixed(1)} ms`);

    const challenge = await fetch(`${base}/x402/connect`, { method: "POST" });
    const ext = decodePaymentRequiredHeader(challenge.headers.get("payment-required")!).extensions![SIGN_IN_WITH_X] as SIWxExtension;
    const chain = ext.supportedChains.find((c) => c.chainId.startsWith("eip155:"))!;
    const header = encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, account, `${base}/x402/connect`));
    const { token } = (await (await fetch(`${base}/x402/connect`, { method: "POST", headers: { "SIGN-IN-WITH-X": header } })).json()) as { token: string };

    const queries = ["steam", "amazon", "japan", "netflix", "google play", "uber", "europe", "playstation"];
    let done = 0;
    const latencies: number[] = [];
    const until = performance.now() + SEARCH_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: SEARCH_CLIENTS }, async (_, c) => {
        for (let i = c; performance.now() < until; i++) {
          const t = performance.now();
          const res = await fetch(`${base}/x402/gift-cards/search?q=${encodeURIComponent(queries[i % queries.length]!)}`, { headers: { "X-Access-Token": token } });
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

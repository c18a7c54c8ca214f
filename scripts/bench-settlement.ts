// Prints how fast the shop settles concurrent x402 payments on a chain that mines a block every second, as Base,
// Arbitrum and Polygon do, beside a bare route handler measured in the same run (these machines are noisy).
//  - bare route: a node:http handler that answers `{}` on loopback, 100 concurrent clients;
//  - settlements: 1, 10 and 100 fresh wallets pay the `checkout/info` micro-fee at the same moment on one EVM network
//    of the production build's devnet; each payment is settled on chain before its answer. Printed: settlements per
//    second, and how many blocks the slowest payer waited (the target: within two blocks of paying).
// `npm run build && npm run bench` (or E2E_BASE_URL=http://localhost:3000 for a running shop on the devnet).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startShop } from "./shop-server";
import { percentile } from "./x402-buyer";

const BLOCK_SECONDS = 1;
const PAYERS = [1, 10, 100];
const BARE_SECONDS = 3;
const BARE_CLIENTS = 100;

type DevnetNetwork = { network: string; rpcUrl: string };

async function rpc(url: string, method: string, params: unknown[]) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { error?: { message: string }; result?: unknown };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function bareRoute(): Promise<{ perSecond: number; p50: number; p95: number }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end("{}"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const latencies: number[] = [];
  const until = performance.now() + BARE_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: BARE_CLIENTS }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await (await fetch(url)).arrayBuffer();
        latencies.push(performance.now() - t);
      }
    }),
  );
  server.close();
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / BARE_SECONDS, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

async function main() {
  const external = process.env.E2E_BASE_URL;
  const shop = external ? { baseURL: external, stop: async () => {} } : await startShop({ DEVNET_BLOCK_TIME: "0" });
  try {
    const base = shop.baseURL;
    const { networks } = (await (await fetch(`${base}/api/dev/devnet`)).json()) as { networks: DevnetNetwork[] };
    const evm = networks.find((n) => n.network.startsWith("eip155:"))!;

    // Every payer is funded first, while the chain still mines at once.
    await rpc(evm.rpcUrl, "evm_setAutomine", [true]);
    const rounds = [];
    for (const n of PAYERS) {
      const payers = [];
      for (let i = 0; i < n; i++) {
        const account = privateKeyToAccount(generatePrivateKey());
        const res = await fetch(`${base}/api/dev/faucet`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ network: evm.network, address: account.address, amount: "1" }),
        });
        if (!res.ok) throw new Error(`faucet: ${res.status}`);
        const client = new x402Client().register(evm.network as `${string}:${string}`, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
        payers.push(wrapFetchWithPayment(fetch, client));
      }
      rounds.push({ n, payers });
    }
    // Warm the route (and its 402) once.
    await rounds[0]!.payers[0]!(`${base}/x402/checkout/info`);

    const bare = await bareRoute();
    await rpc(evm.rpcUrl, "evm_setIntervalMining", [BLOCK_SECONDS]);
    await rpc(evm.rpcUrl, "evm_setAutomine", [false]);
    console.log(`x402 settlements on ${evm.network}, one block every ${BLOCK_SECONDS} s, beside a bare route (${BARE_CLIENTS} clients):`);
    console.log(`  bare route handler        ${bare.perSecond.toFixed(0).padStart(7)} req/s   p50 ${bare.p50.toFixed(1)} ms   p95 ${bare.p95.toFixed(1)} ms`);
    for (const { n, payers } of rounds) {
      const started = performance.now();
      const times = await Promise.all(
        payers.map(async (pay) => {
          const res = await pay(`${base}/x402/checkout/info`);
          if (res.status !== 200) throw new Error(`a paid call answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
          if (!res.headers.get("payment-response")) throw new Error("a paid call carried no PAYMENT-RESPONSE");
          return performance.now() - started;
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      times.sort((a, b) => a - b);
      const blocks = (ms: number) => (ms / 1000 / BLOCK_SECONDS).toFixed(1);
      console.log(
        `  ${String(n).padStart(3)} payer(s) at once      ${(n / elapsed).toFixed(1).padStart(7)} settlements/s   all settled in ${elapsed.toFixed(2)} s (${blocks(elapsed * 1000)} blocks)   p50 ${blocks(percentile(times, 50))} blocks`,
      );
    }
  } finally {
    await shop.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

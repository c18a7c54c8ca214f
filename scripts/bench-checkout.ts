// Prints checkout figures on this machine, against the production build on its local chains:
//  - time from payment to codes: POST /x402/invoice/pay (settled) until the status route shows the codes (p50/p95);
//  - invoice-create throughput with a session token, a few concurrent clients.
// `npm run build && npm run bench:checkout` (or E2E_BASE_URL=http://localhost:3000 to measure a running shop).
import { startShop } from "./shop-server";
import { devnetBuyer, percentile as pct } from "./x402-buyer";

const PURCHASES = 20;
const CREATE_SECONDS = 5;
const CREATE_CLIENTS = 8;

const json = { "Content-Type": "application/json" };

async function main() {
  const external = process.env.E2E_BASE_URL;
  const shop = external ? { baseURL: external, stop: async () => {} } : await startShop();
  try {
    const base = shop.baseURL;
    const buyer = await devnetBuyer(base, "1000");
    const { pay } = buyer;
    const token = await buyer.signIn();
    const auth = { ...json, "X-Access-Token": token };
    const cart = JSON.stringify({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] });

    const toCodes: number[] = [];
    for (let i = 0; i < PURCHASES; i++) {
      const { invoice_id } = (await (await fetch(`${base}/x402/invoice/create`, { method: "POST", headers: auth, body: cart })).json()) as {
        invoice_id: string;
      };
      const t = performance.now();
      const paid = await pay(`${base}/x402/invoice/pay`, { method: "POST", headers: json, body: JSON.stringify({ invoice_id }) });
      if (paid.status !== 200) throw new Error(`pay answered ${paid.status}`);
      for (;;) {
        const s = (await (await fetch(`${base}/x402/invoice/status?invoice_id=${invoice_id}`, { headers: { "X-Access-Token": token } })).json()) as {
          redemption_info?: unknown[];
        };
        if (s.redemption_info?.length) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      toCodes.push(performance.now() - t);
    }
    toCodes.sort((a, b) => a - b);
    console.log(`payment to codes (pay with settlement, then status until codes), ${PURCHASES} purchases:`);
    console.log(`  p50 ${pct(toCodes, 50).toFixed(0)} ms   p95 ${pct(toCodes, 95).toFixed(0)} ms`);

    let created = 0;
    const until = performance.now() + CREATE_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CREATE_CLIENTS }, async () => {
        while (performance.now() < until) {
          const res = await fetch(`${base}/x402/invoice/create`, { method: "POST", headers: auth, body: cart });
          if (res.status !== 200) throw new Error(`create answered ${res.status}`);
          await res.arrayBuffer();
          created++;
        }
      }),
    );
    console.log(`invoice create with a session token, ${CREATE_CLIENTS} clients for ${CREATE_SECONDS} s: ${(created / CREATE_SECONDS).toFixed(0)} invoices/s`);
  } finally {
    await shop.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

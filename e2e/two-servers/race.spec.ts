import { expect, test } from "@playwright/test";
import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createInvoice, decodeRequired, devnetNetworks, evmUsdcBalance, faucet, isEvm, signIn, tokenBalance, type DevnetNetwork } from "../x402/devnet-client";
import { documentedFetch as fetch } from "../x402/documented";
import { SERVER_A, SERVER_B } from "./servers";

// Two shops on one PostgreSQL database and one devnet (npm run devnet, DEVNET_URL), with a block every second: one
// payment is used once whichever server sees it, and many payers at once on both servers each settle once.

test.describe.configure({ mode: "serial" });

let networks: DevnetNetwork[];
test.beforeAll(async () => {
  networks = await devnetNetworks(SERVER_A);
  // One devnet: both servers describe the same chains.
  expect(await devnetNetworks(SERVER_B)).toEqual(networks);
});

const payBody = (id: string, payment?: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...(payment ? { "PAYMENT-SIGNATURE": payment } : {}) },
  body: JSON.stringify({ invoice_id: id }),
});

/** A funded payer on a network and its signature of a payment for `required` on that network. */
async function payer(n: DevnetNetwork, usdc: string) {
  if (isEvm(n)) {
    const account = privateKeyToAccount(generatePrivateKey());
    await faucet(SERVER_A, n.network, account.address, usdc);
    const client = new x402Client()
      .register(n.network as `${string}:${string}`, new ExactEvmScheme(account))
      .setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
    return { address: account.address as string, balance: () => evmUsdcBalance(n, account.address), sign: (r: PaymentRequired) => sign(client, r, n) };
  }
  const signer = await generateKeyPairSigner();
  await faucet(SERVER_A, n.network, signer.address, usdc);
  const client = new x402Client()
    .register(n.network as `${string}:${string}`, new ExactSvmScheme(signer, { rpcUrl: n.rpcUrl }))
    .setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
  const mint = "mint" in n.usdc ? n.usdc.mint : "";
  return { address: signer.address as string, balance: () => tokenBalance(n.rpcUrl, mint, signer.address), sign: (r: PaymentRequired) => sign(client, r, n) };
}

async function sign(client: x402Client, required: PaymentRequired, n: DevnetNetwork) {
  return encodePaymentSignatureHeader(await client.createPaymentPayload({ ...required, accepts: required.accepts.filter((a) => a.network === n.network) }));
}

/** A $10 test gift card invoice made on one server by a wallet of its own. */
async function invoiceOn(server: string) {
  const token = await signIn(server, privateKeyToAccount(generatePrivateKey()));
  return createInvoice(server, token, [{ product_id: "test-gift-card-code", package_value: "10" }]);
}

for (const family of ["EVM", "Solana"] as const) {
  test(`one ${family} payment offered to two invoices on two servers at once is settled once, for one of them`, async () => {
    const n = networks.find((x) => (family === "EVM" ? isEvm(x) : !isEvm(x)))!;
    const [a, b] = await Promise.all([invoiceOn(SERVER_A), invoiceOn(SERVER_B)]);
    expect(a.price_usdc_atomic).toBe(b.price_usdc_atomic);
    const price = BigInt(a.price_usdc_atomic);
    const buyer = await payer(n, "50");
    const payment = await buyer.sign(decodeRequired(await fetch(`${SERVER_A}/x402/invoice/pay`, payBody(a.invoice_id))));

    const answers = await Promise.all([
      fetch(`${SERVER_A}/x402/invoice/pay`, payBody(a.invoice_id, payment)),
      fetch(`${SERVER_B}/x402/invoice/pay`, payBody(b.invoice_id, payment)),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([402, 409]).toContain(statuses[1]);
    // One transfer on chain: the payer paid the price once.
    expect(await buyer.balance()).toBe(50_000_000n - price);
  });
}

test("25 payers on each server at once, on an EVM network and on Solana, each settle once", async () => {
  test.setTimeout(180_000);
  const evm = networks.find(isEvm)!;
  const solana = networks.find((x) => !isEvm(x))!;
  const jobs = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const server = i % 2 === 0 ? SERVER_A : SERVER_B;
      const n = i % 4 < 2 ? evm : solana;
      const invoice = await invoiceOn(server);
      const buyer = await payer(n, "20");
      return { server, n, invoice, buyer, payment: await buyer.sign(decodeRequired(await fetch(`${server}/x402/invoice/pay`, payBody(invoice.invoice_id)))) };
    }),
  );
  const answers = await Promise.all(jobs.map((j) => fetch(`${j.server}/x402/invoice/pay`, payBody(j.invoice.invoice_id, j.payment))));
  const refused = await Promise.all(answers.flatMap((r, i) => (r.status === 200 ? [] : [r.text().then((t) => `${jobs[i]!.n.network} ${r.status} ${t}`)])));
  expect(refused).toEqual([]);
  for (const j of jobs) expect(await j.buyer.balance()).toBe(20_000_000n - BigInt(j.invoice.price_usdc_atomic));
});

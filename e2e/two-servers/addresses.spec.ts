import { expect, test } from "@playwright/test";
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { readHoldings } from "@/lib/payments/forwarders";
import { newMerchant } from "../merchant-api/merchants";
import { devnetNetworks, evmUsdcBalance, faucet, isEvm } from "../x402/devnet-client";
import { SERVER_A, SERVER_B } from "./servers";

// Two shops on one PostgreSQL database and one devnet (a block a second), both running the address watcher on the same
// chain: invoices paid by plain transfers to their own addresses, over-paid, are each paid once, their extra credited
// once, and what each address received reaches payTo exactly once (the forwarder's own count of what it flushed).

type Invoice = {
  id: string;
  status: string;
  payment: { network: string; address: string; amount_atomic: string; received: string; credited: string; missing: string };
};

test("invoices paid by address while two servers watch the chain: paid once, credited once, flushed once", async () => {
  test.setTimeout(120_000);
  const merchant = await newMerchant(SERVER_A, 0);
  // The merchant's key works on both servers (one database): half the invoices are made on each.
  const invoices = await Promise.all(
    Array.from({ length: 4 }, async (_, i) => {
      const res = await callOn(i % 2 === 0 ? SERVER_A : SERVER_B, merchant.basic, "/invoices", {
        body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as Invoice;
    }),
  );
  const n = (await devnetNetworks(SERVER_A)).find((x) => x.network === invoices[0]!.payment.network);
  if (!n || !isEvm(n)) throw new Error(`no EVM network ${invoices[0]!.payment.network} on the devnet`);

  // One payer, as an exchange's hot wallet: a plain transfer of the amount and one USDC more to each address.
  const payer = privateKeyToAccount(generatePrivateKey());
  await faucet(SERVER_A, n.network, payer.address, "60");
  const wallet = createWalletClient({ account: payer, transport: http(n.rpcUrl) });
  const client = createPublicClient({ transport: http(n.rpcUrl) });
  const EXTRA = 1_000_000n;
  // (The faucet's mint lands with the next block.)
  await expect.poll(() => evmUsdcBalance(n, payer.address), { timeout: 15_000 }).toBe(60_000_000n);
  for (const inv of invoices) {
    const hash = await wallet.sendTransaction({
      chain: null,
      to: n.usdc.address as Address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [inv.payment.address as Address, BigInt(inv.payment.amount_atomic) + EXTRA] }),
    });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 200 })).status).toBe("success");
  }

  // Each complete, read from either server.
  for (const [i, inv] of invoices.entries()) {
    const server = i % 2 === 0 ? SERVER_B : SERVER_A;
    await expect
      .poll(async () => ((await callOn(server, merchant.basic, `/invoices/${inv.id}`, {})).body.data as Invoice).status, { timeout: 60_000 })
      .toBe("complete");
    const done = (await merchant.call(`/invoices/${inv.id}`)).body.data as Invoice;
    expect(done.payment).toMatchObject({ missing: "0", credited: "1" });
    expect(BigInt(Math.round(Number(done.payment.received) * 1e6))).toBe(BigInt(inv.payment.amount_atomic) + EXTRA);
  }
  // Four extras of one dollar, credited once each, whichever server decided them.
  expect(await balanceOf(merchant)).toEqual({ balance: 400, currency: "USD" });

  // Each forwarder moved to payTo exactly what it received: nothing held, nothing twice.
  await expect
    .poll(
      async () => {
        const holdings = await readHoldings(
          client,
          invoices.map((inv) => inv.payment.address as Address),
          n.usdc.address as Address,
          await client.getBlockNumber(),
        );
        return holdings.map((h) => `${h.held}/${h.flushed}`);
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toEqual(invoices.map((inv) => `0/${BigInt(inv.payment.amount_atomic) + EXTRA}`));
  // Still so once both servers have had more rounds.
  await new Promise((r) => setTimeout(r, 6_000));
  expect(await balanceOf(merchant)).toEqual({ balance: 400, currency: "USD" });
});

async function balanceOf(m: Awaited<ReturnType<typeof newMerchant>>) {
  return (await m.call("/accounts/balance", { auth: `Bearer ${m.api_token}` })).body.data as { balance: number };
}

/** The merchant API of another server, with the same key. */
async function callOn(server: string, basic: string, path: string, init: { body?: unknown }) {
  const res = await fetch(`${server}/api/v2${path}`, {
    method: init.body ? "POST" : "GET",
    headers: { Authorization: basic, ...(init.body ? { "Content-Type": "application/json" } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data?: unknown } };
}

import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createInvoice, decodeRequired, devnetNetworks, evmBuyer, evmUsdcBalance, faucet, isEvm, signIn, type DevnetNetwork } from "./devnet-client";
// Every answer of the /x402 API these tests get is checked against its OpenAPI document (./documented.ts).
import { documentedFetch as fetch } from "./documented";

test.describe.configure({ mode: "serial" });

let evm: DevnetNetwork;
test.beforeAll(async ({ baseURL }) => {
  evm = (await devnetNetworks(baseURL!)).filter(isEvm)[0]!;
});

const payBody = (id: string) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ invoice_id: id }) });

async function status(baseURL: string, id: string, token: string) {
  const res = await fetch(`${baseURL}/x402/invoice/status?invoice_id=${id}`, { headers: { "X-Access-Token": token } });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { status: string; redemption_info?: Record<string, unknown>[]; orders: { status: string }[] },
  };
}

test("the buyer pays the locked price once; paying again answers 409 and moves no money", async ({ baseURL }) => {
  const buyer = await evmBuyer(baseURL!, evm, "100");
  const token = await signIn(baseURL!, buyer.account);
  const invoice = await createInvoice(baseURL!, token, [{ product_id: "test-gift-card-code", package_value: "20" }]);

  const unpaid = await fetch(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id));
  expect(unpaid.status).toBe(402);
  const required = decodeRequired(unpaid);
  expect(required.accepts.every((a) => a.amount === "20000000")).toBe(true);
  expect(required.accepts).toHaveLength(4);
  const payTo = required.accepts.find((a) => a.network === evm.network)!.payTo;
  const before = await evmUsdcBalance(evm, payTo);

  // A session token never pays an invoice.
  const withToken = await fetch(`${baseURL}/x402/invoice/pay`, {
    ...payBody(invoice.invoice_id),
    headers: { "Content-Type": "application/json", "X-Access-Token": token },
  });
  expect(withToken.status).toBe(402);

  const res = await buyer.pay(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { accepted: boolean; next_step: { url: string } };
  expect(body.accepted).toBe(true);
  expect(body.next_step.url).toBe(`${baseURL}/x402/invoice/status?invoice_id=${invoice.invoice_id}`);
  expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({ success: true, payer: buyer.account.address });
  expect(await evmUsdcBalance(evm, payTo)).toBe(before + 20_000_000n);
  expect(await evmUsdcBalance(evm, buyer.account.address)).toBe(80_000_000n);

  const again = await buyer.pay(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id));
  expect(again.status).toBe(409);
  expect(((await again.json()) as { code: string }).code).toBe("INVOICE_NOT_PAYABLE");
  expect(await evmUsdcBalance(evm, payTo)).toBe(before + 20_000_000n);

  const s = await status(baseURL!, invoice.invoice_id, token);
  expect(s.status).toBe(200);
  expect(["paid", "fulfilling", "complete"]).toContain(s.body.status);
});

test("twelve wallets paying one invoice at once: one settlement, one wallet charged, no 500", async ({ baseURL }) => {
  const owner = privateKeyToAccount(generatePrivateKey());
  const token = await signIn(baseURL!, owner);
  const invoice = await createInvoice(baseURL!, token, [{ product_id: "test-gift-card-code", package_value: "10" }]);
  const required = decodeRequired(await fetch(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id)));
  const payTo = required.accepts.find((a) => a.network === evm.network)!.payTo;
  const before = await evmUsdcBalance(evm, payTo);

  const payers = Array.from({ length: 12 }, () => privateKeyToAccount(generatePrivateKey()));
  await Promise.all(payers.map((p) => faucet(baseURL!, evm.network, p.address, "20")));
  const headers = await Promise.all(
    payers.map(async (p) => {
      const client = new x402Client().register(evm.network as `${string}:${string}`, new ExactEvmScheme(p)).setSpendControls({ allowedAssets: true });
      return encodePaymentSignatureHeader(
        await client.createPaymentPayload({ ...required, accepts: required.accepts.filter((a) => a.network === evm.network) }),
      );
    }),
  );
  const results = await Promise.all(
    headers.map((h) =>
      fetch(`${baseURL}/x402/invoice/pay`, { ...payBody(invoice.invoice_id), headers: { "Content-Type": "application/json", "PAYMENT-SIGNATURE": h } }),
    ),
  );
  const codes = results.map((r) => r.status);
  expect(codes.filter((c) => c === 200)).toHaveLength(1);
  expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
  expect(await evmUsdcBalance(evm, payTo)).toBe(before + 10_000_000n);
  const balances = await Promise.all(payers.map((p) => evmUsdcBalance(evm, p.address)));
  expect(balances.filter((b) => b === 10_000_000n)).toHaveLength(1);
  expect(balances.filter((b) => b === 20_000_000n)).toHaveLength(11);
});

test("pay refuses what is not a payable invoice with the documented statuses", async ({ baseURL }) => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${baseURL}/x402/invoice/pay`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
  expect((await post("{}")).status).toBe(400);
  expect((await post("nope")).status).toBe(400);
  expect((await post(JSON.stringify({ invoice_id: "inv_01JZZZZZZZZZZZZZZZZZZZZZZZ" }))).status).toBe(404);
  expect((await post(JSON.stringify({ invoice_id: "whatever" }))).status).toBe(404);
  const token = await signIn(baseURL!, privateKeyToAccount(generatePrivateKey()));
  const invoice = await createInvoice(baseURL!, token, [{ product_id: "test-gift-card-code", package_value: "10" }]);
  const garbage = await post(JSON.stringify({ invoice_id: invoice.invoice_id }), { "PAYMENT-SIGNATURE": "%%%" });
  expect(garbage.status).toBe(400);
  const other = Buffer.from(JSON.stringify({ x402Version: 1, scheme: "exact", network: "avalanche", payload: {} })).toString("base64");
  expect((await post(JSON.stringify({ invoice_id: invoice.invoice_id }), { "X-PAYMENT": other })).status).toBe(400);
});

test("status: a fee-paying stranger sees no codes, another wallet's token gets 403, the payer gets the codes", async ({ baseURL }) => {
  const buyer = await evmBuyer(baseURL!, evm, "50");
  const token = await signIn(baseURL!, buyer.account);
  const invoice = await createInvoice(baseURL!, token, [
    { product_id: "test-gift-card-code", package_value: "10" },
    { product_id: "test-gift-card-code-fail", package_value: "10" },
  ]);
  expect((await buyer.pay(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id))).status).toBe(200);

  let s = await status(baseURL!, invoice.invoice_id, token);
  for (let i = 0; i < 50 && s.body.status !== "complete"; i++) {
    await new Promise((r) => setTimeout(r, 200));
    s = await status(baseURL!, invoice.invoice_id, token);
  }
  expect(s.body).toMatchObject({ status: "complete", delivery_status: "partially_delivered" });
  expect(s.body.error_code).toBeTruthy();
  expect(s.body.redemption_info).toHaveLength(1);
  expect(s.body.redemption_info![0]).toHaveProperty("code");

  const stranger = await evmBuyer(baseURL!, evm, "1");
  const seen = await stranger.pay(`${baseURL}/x402/invoice/status?invoice_id=${invoice.invoice_id}`);
  expect(seen.status).toBe(200);
  const strangerView = (await seen.json()) as Record<string, unknown>;
  expect(strangerView.status).toBe("complete");
  expect(strangerView.redemption_info).toBeUndefined();

  const otherToken = await signIn(baseURL!, privateKeyToAccount(generatePrivateKey()));
  expect((await status(baseURL!, invoice.invoice_id, otherToken)).status).toBe(403);
  expect((await fetch(`${baseURL}/x402/invoice/status`, { headers: { "X-Access-Token": token } })).status).toBe(400);
  expect((await fetch(`${baseURL}/x402/invoice/status?invoice_id=inv_01JZZZZZZZZZZZZZZZZZZZZZZZ`, { headers: { "X-Access-Token": token } })).status).toBe(404);
});

const luhnValid = (digits: string) =>
  digits
    .split("")
    .reverse()
    .map(Number)
    .reduce((sum, d, i) => sum + (i % 2 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0) %
    10 ===
  0;

async function waitComplete(baseURL: string, id: string, token: string) {
  let s = await status(baseURL, id, token);
  for (let i = 0; i < 75 && s.body.status !== "complete"; i++) {
    await new Promise((r) => setTimeout(r, 200));
    s = await status(baseURL, id, token);
  }
  return s.body;
}

test("an eSIM purchase appears in my/esims with a valid ICCID, takes a top-up, and shows in my/orders", async ({ baseURL }) => {
  const buyer = await evmBuyer(baseURL!, evm, "30");
  const token = await signIn(baseURL!, buyer.account);
  const invoice = await createInvoice(baseURL!, token, [{ product_id: "test-esim-product", package_value: "3GB, 30 Days" }]);
  expect((await buyer.pay(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id))).status).toBe(200);
  const done = await waitComplete(baseURL!, invoice.invoice_id, token);
  expect(done).toMatchObject({ status: "complete", delivery_status: "all_delivered" });
  expect(done.redemption_info![0]).toMatchObject({ barcode_format: "QRCODE" });
  expect(String(done.redemption_info![0]!.barcode_value)).toMatch(/^LPA:1\$/);

  type Esims = { esims: { iccid: string; product_id: string; topup_options_url: string; bundles: { value: string; order_id: string }[] }[] };
  const myEsims = async () => (await (await fetch(`${baseURL}/x402/my/esims`, { headers: { "X-Access-Token": token } })).json()) as Esims;
  const esims = await myEsims();
  expect(esims.esims).toHaveLength(1);
  const esim = esims.esims[0]!;
  expect(esim.iccid).toMatch(/^89\d{17,18}$/);
  expect(luhnValid(esim.iccid)).toBe(true);
  expect(esim).toMatchObject({
    product_id: "test-esim-product",
    topup_options_url: `${baseURL}/x402/products/detail?slug=test-esim-product&iccid=${esim.iccid}`,
  });
  expect(esim.bundles).toEqual([expect.objectContaining({ value: "3GB, 30 Days" })]);

  // Top it up: the options URL offers the product's packages with a line item for this eSIM.
  const options = (await (await fetch(esim.topup_options_url, { headers: { "X-Access-Token": token } })).json()) as {
    suggested_line_item: { product_id: string; package_value: string; refill_input: string };
  };
  expect(options.suggested_line_item).toMatchObject({ product_id: "test-esim-product", refill_input: esim.iccid });
  const topup = await createInvoice(baseURL!, token, [{ ...options.suggested_line_item, package_value: "1GB, 7 Days" }]);
  expect((await buyer.pay(`${baseURL}/x402/invoice/pay`, payBody(topup.invoice_id))).status).toBe(200);
  const added = await waitComplete(baseURL!, topup.invoice_id, token);
  expect(added).toMatchObject({ status: "complete", delivery_status: "all_delivered" });
  expect(added.redemption_info![0]).toMatchObject({ iccid: esim.iccid });
  expect(added.redemption_info![0]!.barcode_value).toBeUndefined();
  const after = await myEsims();
  expect(after.esims).toHaveLength(1);
  expect(after.esims[0]!.bundles.map((b) => b.value)).toEqual(["3GB, 30 Days", "1GB, 7 Days"]);

  const mine = (await (await fetch(`${baseURL}/x402/my/orders?limit=10`, { headers: { "X-Access-Token": token } })).json()) as {
    orders: { invoice_id: string; status: string; codes_available: boolean }[];
    total: number;
  };
  expect(mine.total).toBe(2);
  expect(mine.orders.map((o) => o.invoice_id)).toEqual([topup.invoice_id, invoice.invoice_id]);
  expect(mine.orders[1]).toMatchObject({ invoice_id: invoice.invoice_id, status: "delivered", codes_available: true });
});

test("a failed order is refunded on chain to the payer", async ({ baseURL }) => {
  const buyer = await evmBuyer(baseURL!, evm, "30");
  const token = await signIn(baseURL!, buyer.account);
  const invoice = await createInvoice(baseURL!, token, [
    { product_id: "test-gift-card-code", package_value: "10" },
    { product_id: "test-phone-refill-fail", package_value: "10", refill_input: "+14155550134" },
  ]);
  expect((await buyer.pay(`${baseURL}/x402/invoice/pay`, payBody(invoice.invoice_id))).status).toBe(200);
  // 20 paid of 30; the failed order's 10 may already be back when the balance is read.
  expect([10_000_000n, 20_000_000n]).toContain(await evmUsdcBalance(evm, buyer.account.address));
  const done = await waitComplete(baseURL!, invoice.invoice_id, token);
  expect(done).toMatchObject({ status: "complete", delivery_status: "partially_delivered", error_code: "PARTIAL_FULFILMENT" });
  let refunded = false;
  for (let i = 0; i < 50 && !refunded; i++) {
    refunded = (await evmUsdcBalance(evm, buyer.account.address)) === 20_000_000n;
    if (!refunded) await new Promise((r) => setTimeout(r, 200));
  }
  expect(refunded).toBe(true);
  // The payout lands on chain a moment before the shop records it: wait for the record too.
  type Refunded = { status: string; refund: { amount_usdc: string; transaction: string } };
  let failed: Refunded | undefined;
  for (let i = 0; i < 50 && !failed; i++) {
    const after = await status(baseURL!, invoice.invoice_id, token);
    failed = after.body.orders.find((o) => o.status === "refunded") as unknown as Refunded | undefined;
    if (!failed) await new Promise((r) => setTimeout(r, 200));
  }
  if (!failed) throw new Error("the refund was paid on chain but never recorded on the order");
  expect(failed.refund.amount_usdc).toBe("10");
  expect(failed.refund.transaction).toMatch(/^0x[0-9a-f]{64}$/);
});

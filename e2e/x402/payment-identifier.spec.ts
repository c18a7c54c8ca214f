import { expect, test } from "@playwright/test";
import type { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions, generatePaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import type { PrivateKeyAccount } from "viem/accounts";
import { createInvoice, decodeRequired, devnetNetworks, evmBuyer, evmUsdcBalance, isEvm, signIn, type DevnetNetwork } from "./devnet-client";
import { documentedFetch as fetch } from "./documented";

// Idempotent paid retries (x402 `payment-identifier`): an agent that lost an answer sends the same payment with the
// same id again and gets the same answer, never a second charge; the id with another payment is refused.

test.describe.configure({ mode: "serial" });

let network: Extract<DevnetNetwork, { usdc: { address: `0x${string}` } }>;
let buyer: PrivateKeyAccount;
let client: x402Client;

test.beforeAll(async ({ baseURL }) => {
  network = (await devnetNetworks(baseURL!)).find(isEvm)!;
  ({ account: buyer, client } = await evmBuyer(baseURL!, network, "50"));
});

/** A payment for the 402 `required`, carrying the payment identifier `id`, as a PAYMENT-SIGNATURE header. */
async function sign(required: PaymentRequired, id: string): Promise<string> {
  const extensions = appendPaymentIdentifierToExtensions(structuredClone(required.extensions ?? {}), id);
  const payload = await client.createPaymentPayload({ ...required, extensions, accepts: required.accepts.filter((a) => a.network === network.network) });
  return encodePaymentSignatureHeader(payload);
}

const balance = () => evmUsdcBalance(network, buyer.address);

test("a micro-fee call retried with the same payment and id gets the same answer, paid once", async ({ baseURL }) => {
  const url = `${baseURL}/x402/gift-cards/search?q=steam`;
  const required = decodeRequired(await fetch(url));
  expect(required.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } });
  const id = generatePaymentId("pay_");
  const header = await sign(required, id);
  const before = await balance();

  const first = await fetch(url, { headers: { "PAYMENT-SIGNATURE": header } });
  expect(first.status).toBe(200);
  const body = await first.text();
  const receipt = first.headers.get("payment-response");
  expect(await balance()).toBe(before - 2000n);

  const again = await fetch(url, { headers: { "PAYMENT-SIGNATURE": header } });
  expect(again.status).toBe(200);
  expect(await again.text()).toBe(body);
  expect(again.headers.get("payment-response")).toBe(receipt);
  expect(await balance()).toBe(before - 2000n);

  // The id with another payment, or the same payment on another route: refused, nothing charged.
  const other = await fetch(url, { headers: { "PAYMENT-SIGNATURE": await sign(required, id) } });
  expect(other.status).toBe(409);
  expect(await other.json()).toMatchObject({ code: "PAYMENT_IDENTIFIER_CONFLICT" });
  const elsewhere = await fetch(`${baseURL}/x402/esims/search?q=steam`, { headers: { "PAYMENT-SIGNATURE": header } });
  expect(elsewhere.status).toBe(409);
  expect(await balance()).toBe(before - 2000n);
});

test("an invoice payment retried with its id answers the payment again, not 'already paid', and pays once", async ({ baseURL }) => {
  const token = await signIn(baseURL!, buyer);
  const invoice = await createInvoice(baseURL!, token, [{ product_id: "test-gift-card-code", package_value: "10" }]);
  const pay = (header?: string) =>
    fetch(`${baseURL}/x402/invoice/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(header ? { "PAYMENT-SIGNATURE": header } : {}) },
      body: JSON.stringify({ invoice_id: invoice.invoice_id }),
    });
  const required = decodeRequired(await pay());
  const header = await sign(required, generatePaymentId("pay_"));
  const before = await balance();
  const first = await pay(header);
  expect(first.status).toBe(200);
  const body = await first.json();
  expect(await balance()).toBe(before - BigInt(invoice.price_usdc_atomic));
  const again = await pay(header);
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual(body);
  expect(await balance()).toBe(before - BigInt(invoice.price_usdc_atomic));
});

test("a malformed payment identifier is refused before anything is charged", async ({ baseURL }) => {
  const url = `${baseURL}/x402/gift-cards/search?q=steam`;
  const required = decodeRequired(await fetch(url));
  const extensions = structuredClone(required.extensions ?? {}) as Record<string, { info: Record<string, unknown> }>;
  extensions[PAYMENT_IDENTIFIER]!.info.id = "short";
  const payload = await client.createPaymentPayload({ ...required, extensions, accepts: required.accepts.filter((a) => a.network === network.network) });
  const before = await balance();
  const res = await fetch(url, { headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) } });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ code: "INVALID_PAYMENT" });
  expect(await balance()).toBe(before);
});

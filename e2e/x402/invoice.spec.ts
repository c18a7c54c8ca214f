import { expect, test } from "@playwright/test";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decodeRequired, devnetNetworks, evmBuyer, isEvm } from "./devnet-client";
// Every answer of the /x402 API these tests get is checked against its OpenAPI document (./documented.ts).
import { documentedFetch as fetch } from "./documented";

async function tokenFor(baseURL: string, account = privateKeyToAccount(generatePrivateKey())) {
  const url = `${baseURL}/x402/connect`;
  const ext = decodeRequired(await fetch(url, { method: "POST" })).extensions![SIGN_IN_WITH_X] as SIWxExtension;
  const chain = ext.supportedChains.find((c) => c.chainId.startsWith("eip155:"))!;
  const header = encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, account, url));
  const res = await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": header } });
  return { account, token: ((await res.json()) as { token: string }).token };
}

const post = (baseURL: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseURL}/x402/invoice/create`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

test("a signed-in wallet creates an invoice that locks the cart's price", async ({ baseURL }) => {
  const { token } = await tokenFor(baseURL!);
  const res = await post(
    baseURL!,
    {
      items: [
        { product_id: "test-gift-card-code", package_value: "10" },
        { product_id: "test-esim-product", package_value: "test-esim-product<&>1GB, 7 Days" },
      ],
    },
    { "X-Access-Token": token },
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown> & { next_step: { url: string; body: { invoice_id: string } }; networks: { network: string }[] };
  expect(body).toMatchObject({ price_usdc: "20", price_usd: "20", price_usdc_atomic: "20000000", expires_in_minutes: 15 });
  expect(body.invoice_id).toMatch(/^inv_/);
  expect(body.next_step).toEqual({ method: "POST", url: `${baseURL}/x402/invoice/pay`, body: { invoice_id: body.invoice_id } });
  expect(body.networks).toHaveLength(4);
});

test("without a token, the payer of the fee is the paying wallet", async ({ baseURL }) => {
  const n = (await devnetNetworks(baseURL!)).filter(isEvm)[0]!;
  const buyer = await evmBuyer(baseURL!, n);
  const res = await buyer.pay(`${baseURL}/x402/invoice/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ product_id: "test-phone-refill", package_value: "20", refill_input: "+14155550134" }] }),
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { items: { refill_input: string }[] }).items[0]?.refill_input).toBe("+14155550134");
  expect(res.headers.get("payment-response")).toBeTruthy();
});

test("bad carts are refused with 400 and the documented codes, before any payment", async ({ baseURL }) => {
  const cases: [unknown, string][] = [
    [{}, "MISSING_FIELD"],
    [{ items: [] }, "INVALID_PARAMETER"],
    [{ items: [{ package_value: "10" }] }, "MISSING_FIELD"],
    [{ items: Array.from({ length: 16 }, () => ({ product_id: "test-gift-card-code", package_value: "10" })) }, "TOO_MANY_ITEMS"],
    [{ items: [{ product_id: "test-gift-card-code", package_value: "10", refill_input: "x".repeat(101) }] }, "INVALID_PARAMETER"],
  ];
  for (const [body, code] of cases) {
    const res = await post(baseURL!, body);
    expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe(code);
  }
  const notJson = await fetch(`${baseURL}/x402/invoice/create`, { method: "POST", body: "{items:" });
  expect(notJson.status).toBe(400);
});

test("catalog refusals come after identity, still 400 and never charged", async ({ baseURL }) => {
  const { token } = await tokenFor(baseURL!);
  const cases: [unknown, string][] = [
    [{ items: [{ product_id: "no-such-product", package_value: "10" }] }, "UNKNOWN_PRODUCT"],
    [{ items: [{ product_id: "test-gift-card-code", package_value: "15" }] }, "UNKNOWN_PACKAGE"],
    [{ items: [{ product_id: "test-phone-refill", package_value: "10" }] }, "MISSING_FIELD"],
    [{ items: [{ product_id: "test-phone-refill", package_value: "10", refill_input: "call me" }] }, "INVALID_RECIPIENT"],
  ];
  for (const [body, code] of cases) {
    const res = await post(baseURL!, body, { "X-Access-Token": token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe(code);
  }
});

import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { devnetNetworks, evmBuyer, evmUsdcBalance, isEvm, signIn, type DevnetNetwork } from "./devnet-client";

// The shop's MCP server through the official MCP client on the devnet: the purchase path as tools, paid with the x402
// MCP transport (a PaymentRequired as the tool's error, the payment in _meta["x402/payment"], the receipt in
// _meta["x402/payment-response"]), signed by the official x402 client.

test.describe.configure({ mode: "serial" });

let network: Extract<DevnetNetwork, { usdc: { address: `0x${string}` } }>;
let mcp: Client;
let buyer: PrivateKeyAccount;
let payer: x402Client;

test.beforeAll(async ({ baseURL }) => {
  network = (await devnetNetworks(baseURL!)).find(isEvm)!;
  ({ account: buyer, client: payer } = await evmBuyer(baseURL!, network, "50"));
  mcp = new Client({ name: "storefront-e2e", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`)));
});
test.afterAll(async () => {
  await mcp?.close();
});

const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await mcp.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;

/** Calls a paid tool: first without payment (the PaymentRequired comes back as the tool's error), then paid. */
async function paidCall(name: string, args: Record<string, unknown>) {
  const unpaid = await call(name, args);
  expect(unpaid.isError, JSON.stringify(unpaid.structuredContent)).toBe(true);
  const required = unpaid.structuredContent as unknown as PaymentRequired;
  expect(required.x402Version).toBe(2);
  expect(JSON.parse((unpaid.content[0] as { text: string }).text)).toEqual(required);
  const payload = await payer.createPaymentPayload({ ...required, accepts: required.accepts.filter((a) => a.network === network.network) });
  const paid = await call(name, args, { "x402/payment": payload });
  return { required, payload, paid };
}

test("lists the purchase path as tools with input schemas", async () => {
  const { tools } = await mcp.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(
    ["create_invoice", "get_invoice", "get_product", "list_esims", "list_orders", "pay_invoice", "search_products"].sort(),
  );
  for (const t of tools) {
    expect(t.inputSchema.type).toBe("object");
    expect(t.description!.length).toBeGreaterThan(40);
  }
});

test("buys a gift card: search and details paid per call, invoice created signed in, paid with x402 over MCP, codes read", async ({ baseURL }) => {
  const before = await evmUsdcBalance(network, buyer.address);
  const search = await paidCall("search_products", { kind: "gift_card", query: "steam" });
  expect(search.required.accepts.every((a) => a.amount === "2000")).toBe(true);
  expect(search.paid.isError).toBeFalsy();
  const found = search.paid.structuredContent as { products: { slug: string }[] };
  expect(found.products[0]?.slug).toMatch(/^steam-/);
  expect(search.paid._meta?.["x402/payment-response"]).toMatchObject({ success: true, network: network.network, payer: buyer.address });
  expect(await evmUsdcBalance(network, buyer.address)).toBe(before - 2000n);

  const detail = await paidCall("get_product", { slug: "test-gift-card-code" });
  expect((detail.paid.structuredContent as { product: { slug: string } }).product.slug).toBe("test-gift-card-code");

  // Signed in with a session token: no fee, and the invoice is this wallet's.
  const token = await signIn(baseURL!, buyer);
  const created = await call("create_invoice", { items: [{ product_id: "test-gift-card-code", package_value: "10" }], access_token: token });
  expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
  const invoice = created.structuredContent as { invoice_id: string; price_usdc_atomic: string };

  const pay = await paidCall("pay_invoice", { invoice_id: invoice.invoice_id });
  expect(pay.required.accepts[0]?.amount).toBe(invoice.price_usdc_atomic);
  expect(pay.paid.isError, JSON.stringify(pay.paid.structuredContent)).toBeFalsy();
  expect(pay.paid._meta?.["x402/payment-response"]).toMatchObject({ success: true, payer: buyer.address });

  // The same payment again: refused, never a second charge.
  const again = await call("pay_invoice", { invoice_id: invoice.invoice_id }, { "x402/payment": pay.payload });
  expect(again.isError).toBe(true);
  const balanceAfterPay = await evmUsdcBalance(network, buyer.address);

  let status = (await call("get_invoice", { invoice_id: invoice.invoice_id, access_token: token })).structuredContent as {
    status: string;
    redemption_info?: { code?: string }[];
  };
  for (let i = 0; i < 60 && status.status !== "complete"; i++) {
    await new Promise((r) => setTimeout(r, 250));
    status = (await call("get_invoice", { invoice_id: invoice.invoice_id, access_token: token })).structuredContent as typeof status;
  }
  expect(status.status).toBe("complete");
  expect(status.redemption_info?.[0]?.code).toBeTruthy();
  expect(await evmUsdcBalance(network, buyer.address)).toBe(balanceAfterPay);

  const orders = await call("list_orders", { access_token: token });
  expect((orders.structuredContent as { orders: { invoice_id: string }[] }).orders.map((o) => o.invoice_id)).toContain(invoice.invoice_id);

  // Another wallet, signed in, is refused the codes.
  const stranger = privateKeyToAccount(generatePrivateKey());
  const refused = await call("get_invoice", { invoice_id: invoice.invoice_id, access_token: await signIn(baseURL!, stranger) });
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toMatchObject({ code: "NOT_THE_PAYER" });
});

test("refuses bad input and unsigned wallet tools as tool errors, and answers GET with 405", async ({ baseURL }) => {
  const empty = await call("create_invoice", { items: [] });
  expect(empty.isError).toBe(true);
  const wrongKind = await call("search_products", { kind: "car" });
  expect(wrongKind.isError).toBe(true);
  const unsigned = await call("list_orders", {});
  expect(unsigned.isError).toBe(true);
  expect((unsigned.structuredContent as { accepts: unknown[]; extensions: Record<string, unknown> }).extensions).toHaveProperty("sign-in-with-x");
  // The challenge in that error, signed, goes in _meta["sign-in-with-x"]: the wallet is proven without a token.
  const ext = (unsigned.structuredContent as { extensions: Record<string, unknown> }).extensions[SIGN_IN_WITH_X] as SIWxExtension;
  const chain = ext.supportedChains.find((c) => c.chainId.startsWith("eip155:"))!;
  const siwx = encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, buyer, ext.info.uri));
  const signedIn = await call("list_orders", {}, { "sign-in-with-x": siwx });
  expect(signedIn.isError, JSON.stringify(signedIn.structuredContent)).toBeFalsy();
  expect((signedIn.structuredContent as { wallet: string }).wallet.toLowerCase()).toContain(buyer.address.toLowerCase());
  const badToken = await call("list_esims", { access_token: "not-a-token" });
  expect(badToken.isError).toBe(true);
  expect((await fetch(`${baseURL}/mcp`)).status).toBe(405);
});

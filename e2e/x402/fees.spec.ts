import { expect, test } from "@playwright/test";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { decodeRequired, devnetNetworks, evmBuyer, evmUsdcBalance, isEvm, type DevnetNetwork } from "./devnet-client";
// Every answer of the /x402 API these tests get is checked against its OpenAPI document (./documented.ts).
import { documentedFetch as fetch } from "./documented";

// The official x402 v2 buyer packages against the running shop on its local chains.
test.describe.configure({ mode: "serial" });

let networks: DevnetNetwork[];
test.beforeAll(async ({ baseURL }) => {
  networks = await devnetNetworks(baseURL!);
});

const FEE_ROUTES = [
  ["/x402/checkout/info", "1000"],
  ["/x402/gift-cards/search?q=steam", "2000"],
  ["/x402/esims/search?q=japan", "2000"],
  ["/x402/topups/search?country=NG", "2000"],
  ["/x402/products/detail?slug=steam-us", "1000"],
] as const;

test("the devnet has three EVM chains with private chain ids and a Solana chain", async () => {
  expect(networks).toHaveLength(4);
  const ids = networks.filter(isEvm).map((n) => Number(n.network.split(":")[1]));
  expect(ids).toHaveLength(3);
  for (const id of ids) expect([1, 8453, 42161, 137, 84532, 421614, 80002, 31337]).not.toContain(id);
  expect(networks.find((n) => n.network.startsWith("solana:"))).toBeTruthy();
});

for (const [path, amount] of FEE_ROUTES) {
  test(`${path} answers 402 with a fee of ${amount} on every network`, async ({ baseURL }) => {
    const res = await fetch(baseURL + path);
    expect(res.status).toBe(402);
    const required = decodeRequired(res);
    expect(required.x402Version).toBe(2);
    expect(required.accepts.map((a) => a.network).sort()).toEqual(networks.map((n) => n.network).sort());
    for (const a of required.accepts) expect(a.amount).toBe(amount);
    expect(await res.json()).toEqual(required);
    expect(res.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    // Not gzipped, though fetch asks for it: the header carries the same requirements (see paymentRequiredResponse).
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("content-encoding")).toBeNull();
  });
}

test("paying on each EVM network settles exactly the fee to payTo", async ({ baseURL }) => {
  for (const n of networks.filter(isEvm)) {
    const buyer = await evmBuyer(baseURL!, n);
    const payTo = decodeRequired(await fetch(`${baseURL}/x402/gift-cards/search?q=steam`)).accepts.find((a) => a.network === n.network)!.payTo;
    const before = await evmUsdcBalance(n, payTo);
    const res = await buyer.pay(`${baseURL}/x402/gift-cards/search?q=steam`);
    expect(res.status, n.name).toBe(200);
    const body = (await res.json()) as { products: { slug: string; next_step: { url: string } }[] };
    expect(body.products[0]?.slug).toMatch(/^steam-/);
    expect(body.products[0]?.next_step.url).toBe(`${baseURL}/x402/products/detail?slug=${body.products[0]?.slug}`);
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: n.network, payer: buyer.account.address });
    expect(await evmUsdcBalance(n, payTo)).toBe(before + 2000n);
    expect(await evmUsdcBalance(n, buyer.account.address)).toBe(5_000_000n - 2000n);
  }
});

test("every micro-fee route answers a paid call as documented; a call refused after payment is not charged", async ({ baseURL }) => {
  const n = networks.filter(isEvm)[0]!;
  const buyer = await evmBuyer(baseURL!, n);
  let spent = 0n;
  for (const [path, amount] of FEE_ROUTES) {
    const res = await buyer.pay(baseURL + path);
    expect(res.status, path).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!), path).toMatchObject({ success: true, network: n.network });
    spent += BigInt(amount);
  }
  const missing = await buyer.pay(`${baseURL}/x402/products/detail?slug=steam-uss`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toMatchObject({
    code: "PRODUCT_NOT_FOUND",
    suggestions: expect.arrayContaining([expect.objectContaining({ slug: "steam-us" })]),
  });
  expect(missing.headers.get("payment-response")).toBeNull();
  expect(await evmUsdcBalance(n, buyer.account.address)).toBe(5_000_000n - spent);
});

test("the OpenAPI document is free, cacheable, open to any origin, and named by checkout/info", async ({ baseURL }) => {
  const res = await fetch(`${baseURL}/x402/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const doc = (await res.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.servers).toEqual([{ url: baseURL }]);
  for (const [path] of FEE_ROUTES) expect(Object.keys(doc.paths)).toContain(path.split("?")[0]);

  const buyer = await evmBuyer(baseURL!, networks.filter(isEvm)[0]!);
  const info = (await (await buyer.pay(`${baseURL}/x402/checkout/info`)).json()) as { openapi: string; routes: { path: string }[] };
  expect(info.openapi).toBe(`${baseURL}/x402/openapi.json`);
  expect(info.routes.map((r) => r.path)).not.toContain("/x402/openapi.json");
  for (const r of info.routes) expect(Object.keys(doc.paths)).toContain(r.path);
});

test("the same signed payment is refused the second time", async ({ baseURL }) => {
  const n = networks.filter(isEvm)[0]!;
  const buyer = await evmBuyer(baseURL!, n);
  expect((await buyer.pay(`${baseURL}/x402/checkout/info`)).status).toBe(200);
  const header = buyer.sent[0]!;
  const replay = await fetch(`${baseURL}/x402/checkout/info`, { headers: { "PAYMENT-SIGNATURE": header } });
  expect(replay.status).toBe(402);
  expect(decodeRequired(replay).error).toMatch(/nonce|used|invalid|fail/i);
  expect(await evmUsdcBalance(n, buyer.account.address)).toBe(5_000_000n - 1000n);
});

test("a v1 client's X-PAYMENT header is accepted", async ({ baseURL }) => {
  const n = networks.filter(isEvm)[1]!;
  const buyer = await evmBuyer(baseURL!, n);
  // Build a payment with the official client, then send it the way v1 clients do.
  const { x402Client } = await import("@x402/core/client");
  const { ExactEvmScheme } = await import("@x402/evm/exact/client");
  const client = new x402Client().register(n.network as `${string}:${string}`, new ExactEvmScheme(buyer.account)).setSpendControls({ allowedAssets: true });
  const required = decodeRequired(await fetch(`${baseURL}/x402/products/detail?slug=amazon-us`));
  const payload = await client.createPaymentPayload(required);
  const res = await fetch(`${baseURL}/x402/products/detail?slug=amazon-us`, { headers: { "X-PAYMENT": encodePaymentSignatureHeader(payload) } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { packages: unknown[] }).packages.length).toBeGreaterThan(0);
  expect(res.headers.get("payment-response")).toBeTruthy();

  // And in the v1 payload shape: {x402Version: 1, scheme, network, payload}.
  const again = await client.createPaymentPayload(required);
  const v1 = { x402Version: 1, scheme: "exact", network: n.network, payload: again.payload };
  const res1 = await fetch(`${baseURL}/x402/products/detail?slug=amazon-us`, { headers: { "X-PAYMENT": Buffer.from(JSON.stringify(v1)).toString("base64") } });
  expect(res1.status).toBe(200);
  expect(await evmUsdcBalance(n, buyer.account.address)).toBe(5_000_000n - 2000n);
});

test("malformed payment headers answer 400, never 500", async ({ baseURL }) => {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  for (const header of [
    "garbage!!",
    b64("not json"),
    b64(JSON.stringify({ x402Version: 2 })),
    b64(JSON.stringify({ x402Version: 7, payload: {} })),
    b64("[]"),
  ]) {
    const res = await fetch(`${baseURL}/x402/checkout/info`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(res.status, header).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("INVALID_PAYMENT");
  }
});

test("a payment for another network or amount is refused with a reason", async ({ baseURL }) => {
  const n = networks.filter(isEvm)[2]!;
  const buyer = await evmBuyer(baseURL!, n);
  const { x402Client } = await import("@x402/core/client");
  const { ExactEvmScheme } = await import("@x402/evm/exact/client");
  const client = new x402Client().register(n.network as `${string}:${string}`, new ExactEvmScheme(buyer.account)).setSpendControls({ allowedAssets: true });
  // A payment made for the 1000 fee of checkout/info, sent to a 2000 search route.
  const payload = await client.createPaymentPayload(decodeRequired(await fetch(`${baseURL}/x402/checkout/info`)));
  const res = await fetch(`${baseURL}/x402/esims/search?q=japan`, { headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) } });
  expect(res.status).toBe(402);
  expect(decodeRequired(res).error).toMatch(/No matching payment requirements/);
});

test("bad parameters are refused before any payment", async ({ baseURL }) => {
  const cases = [
    ["/x402/gift-cards/search?country=Germany", "INVALID_PARAMETER"],
    ["/x402/esims/search?q=" + "x".repeat(101), "INVALID_PARAMETER"],
    ["/x402/products/detail", "MISSING_FIELD"],
    ["/x402/topups/search?limit=0", "INVALID_PARAMETER"],
  ] as const;
  for (const [path, code] of cases) {
    const res = await fetch(baseURL + path);
    expect(res.status, path).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe(code);
  }
});

test("browsers may call the API cross-origin with x402 headers", async ({ baseURL }) => {
  const res = await fetch(`${baseURL}/x402/gift-cards/search`, {
    method: "OPTIONS",
    headers: { Origin: "https://agent.example", "Access-Control-Request-Headers": "payment-signature" },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("access-control-allow-headers")).toContain("PAYMENT-SIGNATURE");
  expect(res.headers.get("access-control-expose-headers")).toContain("PAYMENT-RESPONSE");
});

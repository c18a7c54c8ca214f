import { expect, test } from "@playwright/test";
import { generateKeyPairSigner } from "@solana/kit";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension, type SIWxSigner, type SolanaSigner } from "@x402/extensions/sign-in-with-x";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decodeRequired } from "./devnet-client";
// Every answer of the /x402 API these tests get is checked against its OpenAPI document (./documented.ts).
import { documentedFetch as fetch } from "./documented";

// Sign-in with the official SIWX client helpers, as an agent would do it.
async function challengeOf(res: Response): Promise<SIWxExtension> {
  expect(res.status).toBe(402);
  const required = decodeRequired(res);
  const ext = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension | undefined;
  if (!ext) throw new Error("no sign-in-with-x challenge");
  return ext;
}

async function signIn(url: string, ext: SIWxExtension, signer: SIWxSigner, family: "eip155" | "solana"): Promise<string> {
  const chain = ext.supportedChains.find((c) => c.chainId.startsWith(family + ":"));
  if (!chain) throw new Error(`no ${family} chain offered`);
  return encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, signer, url));
}

test("EVM and Solana wallets sign in and get a token that waives fees", async ({ baseURL }) => {
  const url = `${baseURL}/x402/connect`;
  const evm = privateKeyToAccount(generatePrivateKey());
  const sol = (await generateKeyPairSigner()) as unknown as SolanaSigner;

  for (const [signer, family] of [
    [evm, "eip155"],
    [sol, "solana"],
  ] as const) {
    const ext = await challengeOf(await fetch(url, { method: "POST" }));
    expect(ext.supportedChains.map((c) => c.type)).toEqual(expect.arrayContaining(["eip191", "ed25519"]));
    const header = await signIn(url, ext, signer as SIWxSigner, family);
    const res = await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": header } });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { token: string; token_header: string; expires_in: number; wallet: string; next_step: { url: string } };
    expect(session.token_header).toBe("X-Access-Token");
    expect(session.expires_in).toBeGreaterThan(3600);
    expect(session.wallet).toContain(family === "eip155" ? evm.address : (sol as unknown as { address: string }).address);
    expect(session.next_step.url).toBe(`${baseURL}/x402/my/orders`);

    // The token waives the micro-fee and the sign-in on wallet routes.
    const search = await fetch(`${baseURL}/x402/gift-cards/search?q=amazon`, { headers: { "X-Access-Token": session.token } });
    expect(search.status).toBe(200);
    expect(search.headers.get("payment-response")).toBeNull();
    const orders = await fetch(`${baseURL}/x402/my/orders`, { headers: { "X-Access-Token": session.token } });
    expect(orders.status).toBe(200);
    expect(await orders.json()).toMatchObject({ orders: [], start: 0, limit: 50 });

    // The same signed header again is a replay.
    const replay = await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": header } });
    expect(replay.status).toBe(402);
    expect(decodeRequired(replay).error).toMatch(/replayed/);
  }
});

test("a nonce the server never issued, a tampered token and garbage are refused with 402 and a fresh challenge", async ({ baseURL }) => {
  const url = `${baseURL}/x402/connect`;
  const evm = privateKeyToAccount(generatePrivateKey());
  const ext = await challengeOf(await fetch(url, { method: "POST" }));
  const forged = { ...ext, info: { ...ext.info, nonce: "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6" } };
  const res = await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": await signIn(url, forged, evm, "eip155") } });
  expect(res.status).toBe(402);
  expect(decodeRequired(res).error).toMatch(/unknown_nonce/);

  const good = await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": await signIn(url, ext, evm, "eip155") } });
  const { token } = (await good.json()) as { token: string };
  const [h, , s] = token.split(".");
  const tampered = [h, Buffer.from(JSON.stringify({ sub: "eip155:1:0x000000000000000000000000000000000000dEaD" })).toString("base64url"), s].join(".");
  for (const bad of [tampered, token.slice(0, -2) + "xx", "garbage"]) {
    const r = await fetch(`${baseURL}/x402/my/esims`, { headers: { "X-Access-Token": bad } });
    expect(r.status, bad).toBe(402);
    expect(decodeRequired(r).error).toMatch(/X-Access-Token is invalid/);
    const paid = await fetch(`${baseURL}/x402/checkout/info`, { headers: { "X-Access-Token": bad } });
    expect(paid.status).toBe(402);
  }

  // A malformed sign-in is a 402 too, with the reason and a fresh challenge, on every route that takes one, a token
  // beside it or not.
  const routes: [string, string, RequestInit][] = [
    ["POST", url, {}],
    ["GET", `${baseURL}/x402/my/orders`, {}],
    ["GET", `${baseURL}/x402/my/esims`, {}],
    ["POST", `${baseURL}/x402/invoice/create`, { body: JSON.stringify({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }) }],
    ["GET", `${baseURL}/x402/invoice/status?invoice_id=inv_01JZZZZZZZZZZZZZZZZZZZZZZZ`, {}],
  ];
  for (const garbage of ["not base64 !!", Buffer.from("{}").toString("base64"), Buffer.from("[1,2]").toString("base64")]) {
    for (const [method, routeUrl, init] of routes) {
      for (const tokenHeader of [{}, { "X-Access-Token": token }] as Record<string, string>[]) {
        const headers = { "SIGN-IN-WITH-X": garbage, "Content-Type": "application/json", ...tokenHeader };
        const r = await fetch(routeUrl, { method, headers, ...init });
        expect(r.status, `${method} ${routeUrl} ${garbage}`).toBe(402);
        expect(decodeRequired(r).error).toMatch(/^Malformed SIGN-IN-WITH-X header/);
        const fresh = await challengeOf(r);
        expect(fresh.info.nonce).not.toBe(ext.info.nonce);
        // The paid routes offer their fee beside the sign-in.
        expect(decodeRequired(r).accepts.length > 0, routeUrl).toBe(routeUrl.includes("/invoice/"));
      }
    }
  }
});

test("invoice/create and invoice/status offer their fee and a sign-in in one 402; the status route's own challenge signs in", async ({ baseURL }) => {
  const statusUrl = `${baseURL}/x402/invoice/status?invoice_id=inv_01JZZZZZZZZZZZZZZZZZZZZZZZ`;
  const cart = JSON.stringify({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] });
  for (const [method, u, body] of [
    ["POST", `${baseURL}/x402/invoice/create`, cart],
    ["GET", statusUrl, undefined],
  ] as const) {
    const r = await fetch(u, { method, headers: { "Content-Type": "application/json" }, body });
    expect(decodeRequired(r).accepts.length, u).toBeGreaterThan(0);
    expect(decodeRequired(r).extensions).toHaveProperty("bazaar");
    expect((await challengeOf(r)).info.uri).toBe(`${baseURL}${new URL(u).pathname}`);
  }
  // Signed, the status route's challenge proves the wallet and waives the fee: an unknown invoice is then a 404.
  const ext = await challengeOf(await fetch(statusUrl));
  const signed = await fetch(statusUrl, { headers: { "SIGN-IN-WITH-X": await signIn(statusUrl, ext, privateKeyToAccount(generatePrivateKey()), "eip155") } });
  expect([signed.status, ((await signed.json()) as { code: string }).code]).toEqual([404, "INVOICE_NOT_FOUND"]);
});

test("wallet routes ask for a sign-in and check their parameters", async ({ baseURL }) => {
  const ext = await challengeOf(await fetch(`${baseURL}/x402/my/orders`));
  expect(ext.info.uri).toBe(`${baseURL}/x402/my/orders`);
  for (const q of ["start=-1", "limit=0", "limit=101", "limit=abc"]) {
    const r = await fetch(`${baseURL}/x402/my/orders?${q}`);
    expect(r.status, q).toBe(400);
  }
});

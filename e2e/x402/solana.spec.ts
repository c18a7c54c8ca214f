import { expect, test } from "@playwright/test";
import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { decodeRequired, devnetNetworks, faucet, tokenBalance } from "./devnet-client";
// Every answer of the /x402 API these tests get is checked against its OpenAPI document (./documented.ts).
import { documentedFetch as fetch } from "./documented";

test("paying on Solana with the official client settles exactly the fee to payTo", async ({ baseURL }) => {
  const sol = (await devnetNetworks(baseURL!)).find((n) => n.network.startsWith("solana:"))!;
  if (!("mint" in sol.usdc)) throw new Error("no mint");
  const mint = sol.usdc.mint;
  const payer = await generateKeyPairSigner();
  await faucet(baseURL!, sol.network, payer.address, "1");

  // The stock client, given the chain's RPC URL: nothing else is adapted.
  const client = new x402Client()
    .register(sol.network as `${string}:${string}`, new ExactSvmScheme(payer, { rpcUrl: sol.rpcUrl }))
    // Devnet USDC is not a token the client knows: allow it, as for the EVM devnet token.
    .setSpendControls({ allowedAssets: true });
  const sent: string[] = [];
  const pay = wrapFetchWithPayment(async (input, init) => {
    const req = new Request(input, init);
    const sig = req.headers.get("payment-signature");
    if (sig) sent.push(sig);
    return fetch(req);
  }, client);

  const url = `${baseURL}/x402/esims/search?q=japan`;
  const payTo = decodeRequired(await fetch(url)).accepts.find((a) => a.network === sol.network)!.payTo;
  const before = await tokenBalance(sol.rpcUrl, mint, payTo);
  const res = await pay(url);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { products: { slug: string }[] }).products[0]?.slug).toBe("esim-japan");
  expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({ success: true, network: sol.network, payer: payer.address });
  expect(await tokenBalance(sol.rpcUrl, mint, payTo)).toBe(before + 2000n);
  expect(await tokenBalance(sol.rpcUrl, mint, payer.address)).toBe(1_000_000n - 2000n);

  // The same signed transaction again is refused, and nothing more moves.
  const replay = await fetch(url, { headers: { "PAYMENT-SIGNATURE": sent[0]! } });
  expect(replay.status).toBe(402);
  expect(await tokenBalance(sol.rpcUrl, mint, payTo)).toBe(before + 2000n);
});

test("the whole agent flow on Solana: search, detail, create, pay, status, codes", async ({ baseURL }) => {
  const sol = (await devnetNetworks(baseURL!)).find((n) => n.network.startsWith("solana:"))!;
  const payer = await generateKeyPairSigner();
  await faucet(baseURL!, sol.network, payer.address, "25");
  const client = new x402Client()
    .register(sol.network as `${string}:${string}`, new ExactSvmScheme(payer, { rpcUrl: sol.rpcUrl }))
    .setSpendControls({ allowedAssets: true });
  const pay = wrapFetchWithPayment(fetch, client);

  const search = (await (await pay(`${baseURL}/x402/gift-cards/search?q=steam&country=US`)).json()) as { products: { slug: string }[] };
  expect(search.products[0]?.slug).toBe("steam-us");
  const detail = (await (await pay(`${baseURL}/x402/products/detail?slug=test-gift-card-code`)).json()) as { next_step: { url: string; body: unknown } };
  expect(detail.next_step.url).toBe(`${baseURL}/x402/invoice/create`);
  const created = await pay(detail.next_step.url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(detail.next_step.body),
  });
  expect(created.status).toBe(200);
  const invoice = (await created.json()) as { invoice_id: string; price_usdc: string; next_step: { url: string; body: unknown } };
  expect(invoice.price_usdc).toBe("10");
  const paid = await pay(invoice.next_step.url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(invoice.next_step.body),
  });
  expect(paid.status).toBe(200);
  // Fees: 0.002 search + 0.001 detail + 0.002 create, then the invoice's 10.
  expect(await tokenBalance(sol.rpcUrl, (sol.usdc as { mint: string }).mint, payer.address)).toBe(25_000_000n - 5000n - 10_000_000n);

  // The payer proves its wallet with SIWX on the status route and reads its codes.
  const { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X } = await import("@x402/extensions/sign-in-with-x");
  const statusUrl = `${baseURL}/x402/invoice/status?invoice_id=${invoice.invoice_id}`;
  let body: { status: string; redemption_info?: { code?: string }[] } = { status: "" };
  for (let i = 0; i < 75 && body.status !== "complete"; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 200));
    const challenge = await fetch(`${baseURL}/x402/connect`, { method: "POST" });
    const ext = decodeRequired(challenge).extensions![SIGN_IN_WITH_X] as import("@x402/extensions/sign-in-with-x").SIWxExtension;
    const chain = ext.supportedChains.find((c) => c.chainId.startsWith("solana:"))!;
    const header = encodeSIWxHeader(
      await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, payer as never, `${baseURL}/x402/connect`),
    );
    const token = ((await (await fetch(`${baseURL}/x402/connect`, { method: "POST", headers: { "SIGN-IN-WITH-X": header } })).json()) as { token: string })
      .token;
    body = (await (await fetch(statusUrl, { headers: { "X-Access-Token": token } })).json()) as typeof body;
  }
  expect(body.status).toBe("complete");
  expect(body.redemption_info?.[0]?.code).toMatch(/\S{8,}/);
});

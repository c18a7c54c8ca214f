import { expect, test } from "@playwright/test";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address, createSolanaRpc, generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { decodeRequired, devnetNetworks, faucet } from "./devnet-client";

async function tokenBalance(rpcUrl: string, mint: string, owner: string): Promise<bigint> {
  const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const res = await createSolanaRpc(rpcUrl).getTokenAccountBalance(ata).send();
  return BigInt(res.value.amount);
}

test("paying on Solana with the official client settles exactly the fee to payTo", async ({ baseURL }) => {
  const sol = (await devnetNetworks(baseURL!)).find((n) => n.network.startsWith("solana:"))!;
  if (!("mint" in sol.usdc)) throw new Error("no mint");
  const mint = sol.usdc.mint;
  const payer = await generateKeyPairSigner();
  await faucet(baseURL!, sol.network, payer.address, "1");

  // The stock client, given the chain's RPC URL: nothing else is adapted.
  const client = new x402Client().register(sol.network as `${string}:${string}`, new ExactSvmScheme(payer, { rpcUrl: sol.rpcUrl }))
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

import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment } from "@x402/fetch";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address, createSolanaRpc } from "@solana/kit";
import { createPublicClient, erc20Abi, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { documentedFetch } from "./documented";

export type DevnetNetwork =
  | { network: string; name: string; rpcUrl: string; usdc: { address: Address; name: string; version: string; decimals: number } }
  | { network: string; name: string; rpcUrl: string; usdc: { mint: string; decimals: number } };

export const isEvm = (n: DevnetNetwork): n is Extract<DevnetNetwork, { usdc: { address: Address } }> => n.network.startsWith("eip155:");

export async function devnetNetworks(baseURL: string): Promise<DevnetNetwork[]> {
  const res = await fetch(`${baseURL}/api/dev/devnet`);
  if (!res.ok) throw new Error(`GET /api/dev/devnet: ${res.status}`);
  return ((await res.json()) as { networks: DevnetNetwork[] }).networks;
}

export async function faucet(baseURL: string, network: string, address: string, amount: string) {
  const res = await fetch(`${baseURL}/api/dev/faucet`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ network, address, amount }),
  });
  if (!res.ok) throw new Error(`faucet: ${res.status} ${await res.text()}`);
  return res.json();
}

export function decodeRequired(res: Response): PaymentRequired {
  const header = res.headers.get("payment-required");
  if (!header) throw new Error("no PAYMENT-REQUIRED header");
  return decodePaymentRequiredHeader(header);
}

export async function evmUsdcBalance(n: DevnetNetwork, owner: string): Promise<bigint> {
  if (!isEvm(n)) throw new Error("not an EVM network");
  const client = createPublicClient({ transport: http(n.rpcUrl) });
  return client.readContract({ address: n.usdc.address, abi: erc20Abi, functionName: "balanceOf", args: [owner as Address] });
}

/** An SPL token balance (devnet USDC) of an owner, from its associated token account. */
export async function tokenBalance(rpcUrl: string, mint: string, owner: string): Promise<bigint> {
  const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const res = await createSolanaRpc(rpcUrl).getTokenAccountBalance(ata).send();
  return BigInt(res.value.amount);
}

/**
 * A fresh EVM buyer with devnet USDC, its official x402 client for one network (for tests that sign payments
 * themselves), and a fetch that pays with it; every answer that fetch gets, the 402 and the paid one, is checked
 * against the OpenAPI document.
 */
export async function evmBuyer(
  baseURL: string,
  n: DevnetNetwork,
  usdc = "5",
): Promise<{ account: PrivateKeyAccount; client: x402Client; pay: typeof fetch; sent: string[] }> {
  const account = privateKeyToAccount(generatePrivateKey());
  await faucet(baseURL, n.network, account.address, usdc);
  const client = new x402Client().register(n.network as `${string}:${string}`, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
  const sent: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const sig = req.headers.get("payment-signature");
    if (sig) sent.push(sig);
    return documentedFetch(req);
  };
  return { account, client, pay: wrapFetchWithPayment(recording, client), sent };
}

/** A session token for an EVM wallet, from one SIWX sign-in at /x402/connect. */
export async function signIn(baseURL: string, account: PrivateKeyAccount): Promise<string> {
  const url = `${baseURL}/x402/connect`;
  const ext = decodeRequired(await documentedFetch(url, { method: "POST" })).extensions![SIGN_IN_WITH_X] as SIWxExtension;
  const chain = ext.supportedChains.find((c) => c.chainId.startsWith("eip155:"))!;
  const header = encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, account, url));
  return ((await (await documentedFetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": header } })).json()) as { token: string }).token;
}

/** An invoice made with a session token (no fee); the answer must be 200. */
export async function createInvoice(baseURL: string, token: string, items: unknown[]) {
  const res = await documentedFetch(`${baseURL}/x402/invoice/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Access-Token": token },
    body: JSON.stringify({ items }),
  });
  if (res.status !== 200) throw new Error(`invoice/create answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { invoice_id: string; price_usdc_atomic: string };
}

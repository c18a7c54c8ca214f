import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
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
 * A fresh EVM buyer with devnet USDC, and a fetch that pays on one network with the official x402 client; every
 * answer it gets, the 402 and the paid one, is checked against the OpenAPI document.
 */
export async function evmBuyer(baseURL: string, n: DevnetNetwork, usdc = "5"): Promise<{ account: PrivateKeyAccount; pay: typeof fetch; sent: string[] }> {
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
  return { account, pay: wrapFetchWithPayment(recording, client), sent };
}

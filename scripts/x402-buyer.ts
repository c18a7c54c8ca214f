// A devnet buyer, for the benchmarks and `npm run agent` (scripts/agent.ts): a fresh EVM wallet with devnet USDC from
// the shop's faucet, the official x402 client that signs its payments, a fetch that pays with it (@x402/fetch), and a
// session token from one SIWX sign-in.
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/** A network of the devnet, as GET /api/dev/devnet describes it (an EVM one: its USDC token's address). */
export type DevnetNetwork = { network: `${string}:${string}`; name: string; usdc: { address?: `0x${string}`; mint?: string; decimals: number } };

/** What the faucet answers: the mint's transaction and the wallet's balance after it (atomic units). */
export type FaucetAnswer = { minted: string; transaction: string; balance: string };

/** The shop's devnet networks; throws when the shop is not in devnet mode (404). */
export async function devnetNetworks(base: string): Promise<DevnetNetwork[]> {
  const res = await fetch(`${base}/api/dev/devnet`);
  if (!res.ok) throw new Error(`GET ${base}/api/dev/devnet answered ${res.status}: the shop is not on the devnet`);
  return ((await res.json()) as { networks: DevnetNetwork[] }).networks;
}

/** A fresh EVM wallet on the shop's first EVM network, given `usdc` test USDC (a decimal string; "0" gives none). */
export async function devnetBuyer(base: string, usdc: string) {
  const evm = (await devnetNetworks(base)).find((n) => n.network.startsWith("eip155:"))!;
  const account = privateKeyToAccount(generatePrivateKey());
  /** Mints test USDC to the wallet with the devnet faucet (POST /api/dev/faucet), as the shop's burner wallet does. */
  const fund = async (amount: string): Promise<FaucetAnswer> => {
    const res = await fetch(`${base}/api/dev/faucet`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ network: evm.network, address: account.address, amount }),
    });
    if (!res.ok) throw new Error(`the devnet faucet answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as FaucetAnswer;
  };
  if (Number(usdc) > 0) await fund(usdc);
  const client = new x402Client().register(evm.network, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
  const pay = wrapFetchWithPayment(fetch, client);

  const signIn = async (): Promise<string> => {
    const url = `${base}/x402/connect`;
    const challenge = await fetch(url, { method: "POST" });
    const ext = decodePaymentRequiredHeader(challenge.headers.get("payment-required")!).extensions![SIGN_IN_WITH_X] as SIWxExtension;
    const chain = ext.supportedChains.find((c) => c.chainId.startsWith("eip155:"))!;
    const header = encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, account, url));
    return ((await (await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": header } })).json()) as { token: string }).token;
  };
  return { network: evm.network, networkName: evm.name, usdcAsset: evm.usdc.address!, account, client, pay, fund, signIn };
}

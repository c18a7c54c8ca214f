// A devnet buyer for the benchmarks: a fresh EVM wallet with devnet USDC, a fetch that pays with the official x402
// client, and a session token from one SIWX sign-in.
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

export async function devnetBuyer(base: string, usdc: string) {
  const { networks } = (await (await fetch(`${base}/api/dev/devnet`)).json()) as { networks: { network: string }[] };
  const evm = networks.find((n) => n.network.startsWith("eip155:"))!;
  const account = privateKeyToAccount(generatePrivateKey());
  await fetch(`${base}/api/dev/faucet`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ network: evm.network, address: account.address, amount: usdc }),
  });
  const client = new x402Client().register(evm.network as `${string}:${string}`, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
  const pay = wrapFetchWithPayment(fetch, client);

  const signIn = async (): Promise<string> => {
    const url = `${base}/x402/connect`;
    const challenge = await fetch(url, { method: "POST" });
    const ext = decodePaymentRequiredHeader(challenge.headers.get("payment-required")!).extensions![SIGN_IN_WITH_X] as SIWxExtension;
    const chain = ext.supportedChains.find((c) => c.chainId.startsWith("eip155:"))!;
    const header = encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, account, url));
    return ((await (await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": header } })).json()) as { token: string }).token;
  };
  return { network: evm.network, account, pay, signIn };
}

import { createPublicClient, http } from "viem";
import { createSiwxChallenge, verifySiwxHeader, type SiwxChallengeExtensions, type Wallet } from "@/lib/identity";
import { viemChain, getPayments } from "@/lib/payments";
import type { EvmNetwork } from "@/lib/platform/networks";

// SIGN-IN-WITH-X on the /x402 API: the one challenge builder and the one check, for the wallet routes (with-wallet.ts)
// and the paid routes that take a sign-in (with-x402-fee.ts). Every refusal, a malformed header included, is a reason
// for a 402 with a fresh challenge: never a 400 or a 401.

const SIWX_STATEMENT = "Sign in to x402 Storefront with this wallet.";

/** Smart-contract wallets (EIP-1271) are checked on their chain; the verifier is a viem public client. */
function evmVerifierFor(networks: EvmNetwork[]) {
  const clients = new Map(networks.map((n) => [n.network as string, createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl) })]));
  return (chainId: string) => clients.get(chainId)?.verifyMessage;
}

/**
 * A fresh sign-in challenge for this request (a new single-use nonce, on every network of the mode), as the
 * `extensions` member of a 402: `{"sign-in-with-x": …}`.
 */
export async function signInExtensions(req: Request, origin: string): Promise<SiwxChallengeExtensions> {
  const { networks } = await getPayments();
  return createSiwxChallenge({ origin, resourceUrl: origin + new URL(req.url).pathname, chains: networks.map((n) => n.network), statement: SIWX_STATEMENT });
}

/**
 * The wallet a request's SIGN-IN-WITH-X header proves (its nonce spent unless `consume: false`), or why it proves none:
 * the reason a 402 gives. Undefined when the request carries no such header.
 */
export async function proveSignIn(
  req: Request,
  origin: string,
  { consume = true }: { consume?: boolean } = {},
): Promise<{ wallet: Wallet } | { problem: string } | undefined> {
  const header = req.headers.get("sign-in-with-x");
  if (!header) return undefined;
  const { networks } = await getPayments();
  const evmVerifier = evmVerifierFor(networks.filter((n): n is EvmNetwork => n.kind === "evm"));
  const result = await verifySiwxHeader(header, { origin, evmVerifier, consume });
  if (result.ok) return { wallet: result.wallet };
  if (result.code === "malformed") return { problem: `Malformed SIGN-IN-WITH-X header: ${result.message}` };
  return { problem: `Sign-in refused (${result.code}): ${result.message}` };
}

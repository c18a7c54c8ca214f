import { encodePaymentRequiredHeader } from "@x402/core/http";
import { createPublicClient, http } from "viem";
import { createSiwxChallenge, verifySessionToken, verifySiwxHeader, walletOwnerKey, type Wallet } from "@/lib/identity";
import { viemChain } from "@/lib/payments/chain";
import { getPayments } from "@/lib/payments/payments";
import type { EvmNetwork } from "@/lib/networks";
import { ApiError, jsonResponse } from "@/lib/http/api-error";
import { publicOrigin } from "@/lib/http/origin";
import { withRequestLog } from "@/lib/http/request-log";
import { checkX402Limits } from "./x402-limits";
import { errorResponse, x402Headers } from "./with-x402-fee";
import type { X402RouteId } from "./x402-routes";

export type WalletContext = { wallet: Wallet; via: "token" | "siwx"; origin: string };
type Handler = (req: Request, ctx: WalletContext) => Promise<Response>;

const SIWX_STATEMENT = "Sign in to x402 Storefront with this wallet.";

/** Smart-contract wallets (EIP-1271) are checked on their chain; the verifier is a viem public client. */
async function evmVerifierFor(networks: EvmNetwork[]) {
  const clients = new Map(networks.map((n) => [n.network as string, createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl) })]));
  return (chainId: string) => clients.get(chainId)?.verifyMessage;
}

/** A 402 that asks for a SIWX sign-in: the challenge in `extensions["sign-in-with-x"]`, header and body alike. */
export async function signInRequired(req: Request, origin: string, error: string): Promise<Response> {
  const { networks } = await getPayments();
  const url = origin + new URL(req.url).pathname;
  const extensions = await createSiwxChallenge({ origin, resourceUrl: url, chains: networks.map((n) => n.network), statement: SIWX_STATEMENT });
  const body = { x402Version: 2, error, resource: { url, description: "Sign in with your wallet", mimeType: "application/json" }, accepts: [], extensions };
  return jsonResponse(body, { status: 402, headers: x402Headers({ "PAYMENT-REQUIRED": encodePaymentRequiredHeader(body as never) }) });
}

/**
 * Resolves the caller's wallet from SIGN-IN-WITH-X (single-use nonce we issued) or, when `acceptToken`,
 * X-Access-Token. Answers undefined when neither is present; a bad proof is an ApiError or a 402 reason.
 */
export async function resolveWallet(
  req: Request,
  origin: string,
  acceptToken: boolean,
): Promise<{ wallet: Wallet; via: "token" | "siwx" } | { problem: string } | undefined> {
  const siwx = req.headers.get("sign-in-with-x");
  if (siwx) {
    const { networks } = await getPayments();
    const evmVerifier = await evmVerifierFor(networks.filter((n): n is EvmNetwork => n.kind === "evm"));
    const result = await verifySiwxHeader(siwx, { origin, evmVerifier });
    if (result.ok) return { wallet: result.wallet, via: "siwx" };
    if (result.code === "malformed") throw new ApiError(400, "INVALID_SIWX", `Malformed SIGN-IN-WITH-X header: ${result.message}`);
    return { problem: `Sign-in refused (${result.code}): ${result.message}` };
  }
  const token = acceptToken ? req.headers.get("x-access-token") : null;
  if (token) {
    const wallet = await verifySessionToken(token);
    return wallet ? { wallet, via: "token" } : { problem: "The X-Access-Token is invalid or expired: sign in again" };
  }
  return undefined;
}

/** Wraps a route that needs a wallet identity (no fee): SIWX or a session token, else a 402 sign-in challenge. */
export function withWallet(routeId: X402RouteId, handler: Handler, opts: { acceptToken?: boolean; precheck?: (req: Request) => void } = {}) {
  const acceptToken = opts.acceptToken ?? true;
  return withRequestLog(async (req: Request): Promise<Response> => {
    try {
      opts.precheck?.(req);
      const origin = publicOrigin(req);
      // The address first: a flood gets neither a signature checked nor a challenge (a stored nonce) issued.
      await checkX402Limits(req);
      const who = await resolveWallet(req, origin, acceptToken);
      if (!who) return await signInRequired(req, origin, "Sign-in required: send SIGN-IN-WITH-X" + (acceptToken ? " or X-Access-Token" : ""));
      if ("problem" in who) return await signInRequired(req, origin, who.problem);
      const owner = walletOwnerKey(who.wallet);
      if (owner) await checkX402Limits(req, owner, { address: false });
      const res = await handler(req, { ...who, origin });
      const headers = x402Headers(res.headers);
      return new Response(res.body, { status: res.status, headers });
    } catch (err) {
      return errorResponse(err);
    }
  });
}

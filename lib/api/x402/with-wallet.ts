import type { PaymentRequired } from "@x402/core/types";
import { verifySessionToken, walletOwnerKey, type Wallet } from "@/lib/identity";
import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { checkX402Limits } from "./x402-limits";
import { proveSignIn, signInExtensions } from "./sign-in";
import { errorResponse, paymentRequiredResponse, x402Headers } from "./with-x402-fee";
import type { X402RouteId } from "./x402-routes";

export type WalletContext = { wallet: Wallet; via: "token" | "siwx"; origin: string };
type Handler = (req: Request, ctx: WalletContext) => Promise<Response>;

/** A 402 that asks for a SIWX sign-in: a fresh challenge in `extensions["sign-in-with-x"]`, header and body alike. */
export async function signInRequired(req: Request, origin: string, error: string): Promise<Response> {
  const url = origin + new URL(req.url).pathname;
  const extensions = await signInExtensions(req, origin);
  const body = { x402Version: 2, error, resource: { url, description: "Sign in with your wallet", mimeType: "application/json" }, accepts: [], extensions };
  return paymentRequiredResponse(body as PaymentRequired);
}

/**
 * Resolves the caller's wallet from SIGN-IN-WITH-X (single-use nonce we issued) or, when `acceptToken`,
 * X-Access-Token. SIGN-IN-WITH-X comes first: a token beside a bad sign-in does not save it. Answers undefined when
 * neither is present, and the reason for a 402 when the proof sent (malformed, refused, expired) proves nothing.
 */
export async function resolveWallet(
  req: Request,
  origin: string,
  acceptToken: boolean,
): Promise<{ wallet: Wallet; via: "token" | "siwx" } | { problem: string } | undefined> {
  const signedIn = await proveSignIn(req, origin);
  if (signedIn) return "problem" in signedIn ? signedIn : { wallet: signedIn.wallet, via: "siwx" };
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
  return guardedRoute(async (req: Request): Promise<Response> => {
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

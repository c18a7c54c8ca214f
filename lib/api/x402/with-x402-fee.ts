import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { DomainError } from "@/lib/platform/errors";
import { x402ErrorOf } from "./errors";
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import { verifySessionToken, walletOwnerKey, type Wallet } from "@/lib/identity";
import { getDb } from "@/lib/platform/db";
import { exchange, findMatchingRequirement, getPayments, type Payments } from "@/lib/payments";
import { ApiError, jsonResponse } from "@/lib/platform/http/api-error";
import { decodePaymentHeader, paymentHeader } from "./payment-header";
import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { checkX402Limits } from "./x402-limits";
import { proveSignIn, signInExtensions } from "./sign-in";
import { databaseUnavailable } from "@/lib/platform/http/unavailable";
import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { answerPayer, earlierAnswer, keepAnswer, paidAnswerKey } from "./paid-answers";
import { discoveryExtensions, PAID_ROUTES, type PaidRouteId } from "@/lib/api/x402/discovery";
import { EXPOSED_HEADERS, X402_ROUTES, type X402RouteId } from "./x402-routes";
import { log } from "@/lib/platform/log";
import { answerUnsettled } from "./exchange-answer";

export type FeeContext = {
  /** The wallet behind the call: the session token's, the SIGN-IN-WITH-X one when it waived the fee, or the payer of the fee. */
  wallet: Wallet | null;
  /** How the fee was covered. */
  via: "token" | "payment" | "siwx";
  /** The wallet a SIGN-IN-WITH-X header proved (routes that take one), whatever covered the fee. */
  signedIn: Wallet | null;
  origin: string;
};

/**
 * Whether the route takes SIGN-IN-WITH-X (the route table lists the header), and what the sign-in does there: name
 * the caller's wallet only (the fee is still due), or also waive the fee.
 */
export type SignInUse = { waivesFee: boolean };

type Handler = (req: Request, ctx: FeeContext) => Promise<Response>;

/** Base headers of every /x402 response. */
export function x402Headers(extra?: HeadersInit): Headers {
  const h = new Headers(extra);
  h.set("Access-Control-Allow-Origin", "*");
  h.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  h.set("Cache-Control", "no-store");
  return h;
}

function withHeaders(res: Response, extra: Record<string, string>): Response {
  const headers = x402Headers(res.headers);
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * A 402: the requirements in PAYMENT-REQUIRED and mirrored in the JSON body, with the reason. Sent uncompressed
 * (`no-transform`, which the server's gzip honours): the header, which no compression touches, carries the same
 * requirements, and gzipping the body's 3 KB took about 1.2 ms of the 3.3 ms of CPU a 402 costs, on the path every
 * paid call takes first, to save 2 KB.
 */
export function paymentRequiredResponse(paymentRequired: PaymentRequired, extraHeaders: Record<string, string> = {}): Response {
  const headers = x402Headers({ "PAYMENT-REQUIRED": encodePaymentRequiredHeader(paymentRequired), ...extraHeaders });
  headers.set("Cache-Control", "no-store, no-transform");
  return jsonResponse(paymentRequired, { status: 402, headers });
}

function payerWallet(network: string, payer: string | undefined): Wallet | null {
  return payer ? { chainId: network, address: payer } : null;
}

/**
 * Wraps a route that costs a fixed micro-fee (the table in x402-routes.ts). A valid X-Access-Token skips the fee.
 * Otherwise: no payment -> 402 with every network of the mode; a paid retry (PAYMENT-SIGNATURE, or X-PAYMENT from
 * v1 clients) is verified, the handler runs, and the payment is settled only when the handler answered below 400.
 * Malformed payment -> 400; invalid, replayed or unsettled payment -> 402 with the reason. Never a 500 for input.
 * `precheck` validates the request first, so that a call with bad parameters costs nothing.
 *
 * A route that takes SIGN-IN-WITH-X (`signIn`) offers a fresh sign-in challenge beside the payment in each of its 402s.
 * A sign-in that does not hold (malformed, refused, expired, replayed) is answered with such a 402 and its reason, even
 * beside a valid token or payment (nothing is charged). One that holds is spent only when the call is served; on a
 * call that still lacks its payment it stays good for the paid retry.
 */
export function withX402Fee(
  routeId: X402RouteId,
  handler: Handler,
  precheck?: (req: Request) => void | Promise<void>,
  { signIn }: { signIn?: SignInUse } = {},
) {
  const route = X402_ROUTES[routeId];
  if (route.fee === null) throw new Error(`${routeId} has no fixed fee`);
  const fee = route.fee;
  const paidRoute = routeId as PaidRouteId;
  if (!PAID_ROUTES.includes(paidRoute)) throw new Error(`${routeId} is not in PAID_ROUTES: it would be missing from discovery`);
  if (Boolean(signIn) !== (route.headers as readonly string[]).includes("SIGN-IN-WITH-X")) {
    throw new Error(`${routeId}: the route table ${signIn ? "does not list" : "lists"} SIGN-IN-WITH-X`);
  }
  return guardedRoute(async (req: Request): Promise<Response> => {
    try {
      const origin = publicOrigin(req);
      const token = req.headers.get("x-access-token");
      const tokenWallet = token ? await verifySessionToken(token) : null;
      // The limits first (per address, and per wallet with a session), then the body: a flood is refused unread.
      await checkX402Limits(req, tokenWallet ? (walletOwnerKey(tokenWallet) ?? undefined) : undefined);
      // Bad parameters are refused before anyone pays for them.
      await precheck?.(req);
      const siwx = signIn ? req.headers.get("sign-in-with-x") || null : null;
      if (tokenWallet && !siwx) return withHeaders(await handler(req, { wallet: tokenWallet, via: "token", signedIn: null, origin }), {});
      // A token, or a sign-in where it waives the fee, covers the call (when the sign-in holds): a payment is then not read.
      const feeWaived = tokenWallet !== null || (siwx !== null && signIn?.waivesFee === true);
      // A payment with an identifier that was answered before gets that answer again, and costs nothing more.
      const answerKey = feeWaived ? undefined : paidAnswerKey(req, routeId);
      const earlier = answerKey && (await earlierAnswer(answerKey, x402Headers));
      if (earlier) return earlier;
      const payments = await getPayments();
      const resource = { url: origin + new URL(req.url).pathname + new URL(req.url).search, description: route.description, mimeType: "application/json" };
      const requirements = await payments.requirements(fee);
      const refuse = async (reason: string, extra?: Record<string, string>) =>
        paymentRequiredResponse(await required(payments, requirements, resource, reason, paidRoute, signIn ? req : undefined, origin), extra);

      // The payment, when the call needs one (a malformed one is a 400).
      const header = feeWaived ? undefined : paymentHeader(req);
      const payload = header ? decodePaymentHeader(header, requirements) : undefined;
      const match = payload ? findMatchingRequirement(payments, requirements, payload) : undefined;

      let signedIn: Wallet | null = null;
      if (siwx) {
        const served = feeWaived || match !== undefined;
        const proof = await proveSignIn(req, origin, { consume: served });
        if (proof && "problem" in proof) return await refuse(proof.problem);
        if (proof && served) {
          signedIn = proof.wallet;
          const owner = tokenWallet ? undefined : walletOwnerKey(signedIn);
          if (owner) await checkX402Limits(req, owner, { address: false });
        }
      }
      if (tokenWallet) return withHeaders(await handler(req, { wallet: tokenWallet, via: "token", signedIn, origin }), {});
      if (signedIn && signIn?.waivesFee) return withHeaders(await handler(req, { wallet: signedIn, via: "siwx", signedIn, origin }), {});

      if (!header || !payload) {
        return await refuse(token ? "The X-Access-Token is invalid or expired: pay the fee, or sign in again with POST /x402/connect" : "Payment required");
      }
      if (!match) return await refuse("No matching payment requirements: pay one of the offered networks with the exact amount");
      let res: Response | undefined;
      // The payer the payment verified as: its answer is kept under it.
      let payer: string | null = null;
      const exchanged = await exchange({
        db: await getDb(),
        payments,
        payload,
        requirement: match,
        purpose: "fee",
        reference: routeId,
        // A fee does nothing more once it lands: its request was answered when it was paid.
        effects: {},
        // The handler runs once the payment is recorded (a copy of it sent at the same time is refused, not served),
        // and the fee is settled only when it answered below 400.
        beforeSettle: async (verified) => {
          payer = answerPayer(match.network, verified);
          res = await handler(req, { wallet: payerWallet(match.network, verified), via: "payment", signedIn, origin });
          return res.status < 400;
        },
      });
      const result = await answerUnsettled(exchanged, refuse);
      if (result instanceof Response) return result;
      switch (result.kind) {
        case "cancelled":
          return withHeaders(res!, {});
        case "pending":
          // Sent and waiting for the chain: the answer is served (the reconciler records the fee when it lands).
          return keepAnswer(answerKey, payer, withHeaders(res!, { "PAYMENT-RESPONSE": encodePaymentResponseHeader(result.settle) }));
        case "settled":
          return keepAnswer(answerKey, payer, withHeaders(res!, { "PAYMENT-RESPONSE": encodePaymentResponseHeader(result.settle) }));
      }
    } catch (err) {
      return errorResponse(err);
    }
  });
}

export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) return err.toResponse(x402Headers());
  const refusal = err instanceof DomainError ? x402ErrorOf(err) : undefined;
  if (refusal) return refusal.toResponse(x402Headers());
  if (isDatabaseUnavailable(err)) {
    log.warn({ err }, "x402 request met the database unavailable");
    return databaseUnavailable().toResponse(x402Headers());
  }
  log.error({ err }, "x402 request failed");
  return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. Try again.").toResponse(x402Headers());
}

/** The route's 402: the payment requirements, its discovery metadata and, on a route that takes a sign-in (`signInFor`), a fresh challenge. */
async function required(
  payments: Payments,
  accepts: PaymentRequirements[],
  resource: PaymentRequired["resource"],
  error: string,
  routeId: PaidRouteId,
  signInFor: Request | undefined,
  origin: string,
) {
  const extensions = { ...discoveryExtensions(routeId), ...(signInFor ? await signInExtensions(signInFor, origin) : {}) };
  return payments.server.createPaymentRequiredResponse(accepts, resource, error, extensions);
}

/** CORS preflight of /x402 routes: agents in web pages send x402 headers cross-origin. */
export const x402Preflight = guardedRoute(async (): Promise<Response> => {
  return new Response(null, {
    status: 204,
    headers: x402Headers({
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
      "Access-Control-Allow-Headers": "Content-Type, PAYMENT-SIGNATURE, X-PAYMENT, X-Access-Token, SIGN-IN-WITH-X, X-Service-Affiliate-Id",
      "Access-Control-Max-Age": "86400",
    }),
  });
});

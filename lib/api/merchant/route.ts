import { ZodError } from "zod";
import { getDb, type Db } from "@/lib/platform/db";
import { BodyError } from "@/lib/platform/http/body";
import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { authenticate, type AccountHolder, type Credential } from "@/lib/merchants";
import { getRateLimiter, ipSubject, type MerchantRouteId } from "@/lib/platform/ratelimit";
import { DomainError } from "@/lib/platform/errors";
import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { DATABASE_UNAVAILABLE_MESSAGE, retryAfter } from "@/lib/platform/http/unavailable";
import { V2Error } from "./envelope";
import { v2ErrorOf } from "./errors";
import { rateLimitedResponse } from "./rate-limited";
import { addLogContext, log } from "@/lib/platform/log";
import { clientIp } from "@/lib/api/x402";
import { edgeError, pathOf, requestProblem, surfaceOf, urlProblem, type RequestProblem } from "@/lib/platform/http/edge-guard";
import { allowedMethods, allowHeader, EDGE_REFUSAL_PATH, EDGE_REFUSAL_QUERY } from "./methods";

export type MerchantContext = {
  merchant: AccountHolder;
  credential: Credential;
  db: Db;
  /** The path under /api/v2, as `meta._endpoint` reports it. */
  endpoint: string;
  /** Absolute base of the API (`https://shop.example/api/v2`), for `meta._next` and links. */
  apiBase: string;
  params: Record<string, string>;
};

type Handler = (req: Request, ctx: MerchantContext) => Promise<Response>;
/** What a route answers to a request that sends no credentials at all, where it takes one (GET /ping). */
type WithoutCredentials = (req: Request, ctx: { endpoint: string }) => Promise<Response>;
type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

export const API_PREFIX = "/api/v2";

/**
 * The edge's refusals of the API's requests (guarded-route.ts), counted and with the limit's fields as its every
 * answer: the guard of every route under /api/v2.
 */
export const MERCHANT_GUARD = { refuse: (req: Request, problem: RequestProblem) => merchantEdgeRefusal(req, new URL(req.url).pathname, problem) };

/**
 * A merchant API route: authenticates the credential (401/403), runs the handler, and turns every failure into the
 * API's error envelope. The database unreachable is a 503 `service_unavailable` with Retry-After; an unexpected error
 * is logged and answered 500 without details. What the edge refuses is refused first (guarded-route.ts, MERCHANT_GUARD).
 */
export function merchantRoute(routeId: MerchantRouteId, handler: Handler, options: { withoutCredentials?: WithoutCredentials } = {}) {
  return guardedRoute(async (req: Request, next: NextContext): Promise<Response> => {
    const url = new URL(req.url);
    const endpoint = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) || "/" : url.pathname;
    let limits: Headers | undefined;
    try {
      // No Authorization header at all (an empty one is a malformed credential: 401): the route's own limit, counted
      // per client address instead of per account.
      if (options.withoutCredentials && !req.headers.has("authorization")) {
        const ip = clientIp(req);
        const decision = await (await getRateLimiter()).consume(routeId, ip ? `ip:${ipSubject(ip)}` : "ip:loopback");
        if (!decision.allowed) return rateLimitedResponse(endpoint, decision);
        limits = new Headers(decision.headers);
        return withHeaders(await options.withoutCredentials(req, { endpoint }), limits);
      }
      const db = await getDb();
      const { merchant, credential } = await authenticate(db, req.headers.get("authorization"));
      addLogContext({ merchant_id: merchant.id });
      // Counted per account (all its keys share each budget) once it is known; every answer from here on carries the
      // limit's fields.
      const decision = await (await getRateLimiter()).consume(routeId, merchant.id);
      if (!decision.allowed) return rateLimitedResponse(endpoint, decision);
      limits = new Headers(decision.headers);
      const raw = (await next.params) ?? {};
      const params = Object.fromEntries(Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
      return withHeaders(await handler(req, { merchant, credential, db, endpoint, apiBase: `${publicOrigin(req)}${API_PREFIX}`, params }), limits);
    } catch (err) {
      // (A database outage judged no credential: it is not counted against the client's address, whose budget would
      // otherwise turn the outage's 503s into 429s for every account behind that address.)
      if (!limits && !isDatabaseUnavailable(err)) {
        // No credential counted this request (it had none that passed): its client's address does.
        const anonymous = await anonymousDecision(req);
        if (anonymous && !anonymous.allowed) return rateLimitedResponse(endpoint, anonymous);
        limits = anonymous && new Headers(anonymous.headers);
      }
      return withHeaders(errorResponse(err, endpoint, routeId), limits);
    }
  }, MERCHANT_GUARD);
}

/** Counts a request that no credential counts against its client's address; undefined if the store failed. */
async function anonymousDecision(req: Request) {
  // (The limiter's start may fail too: on PostgreSQL it opens the database.)
  try {
    return await (await getRateLimiter()).consumeAnonymous(clientIp(req));
  } catch (err) {
    log.error({ err }, "rate limit store failed");
    return undefined;
  }
}

/**
 * What /api/v2 answers where no route does: a JSON 404 `not_found` for a path that is no route, a JSON 405 with
 * `Allow` for a method that the path does not take (every route file sends the methods it does not take here), 204
 * with `Allow` to OPTIONS; all counted against the client's address and carrying the limit's fields like every answer
 * of the API (and so are the edge's refusals, MERCHANT_GUARD).
 */
export const merchantFallback = guardedRoute(fallback, MERCHANT_GUARD);

async function fallback(req: Request): Promise<Response> {
  const endpoint = new URL(req.url).pathname.slice(API_PREFIX.length) || "/";
  const decision = await anonymousDecision(req);
  if (decision && !decision.allowed) return rateLimitedResponse(endpoint, decision);
  const allowed = allowedMethods(endpoint);
  const res =
    allowed.length > 0 && req.method === "OPTIONS"
      ? new Response(null, { status: 204, headers: { Allow: allowHeader(allowed) } })
      : allowed.length > 0 && !allowed.includes(req.method)
        ? new V2Error(405, "method_not_allowed", `${endpoint} takes ${allowed.join(", ")}, not ${req.method}.`).toResponse(endpoint, {
            Allow: allowHeader(allowed),
          })
        : new V2Error(404, "not_found", `There is no endpoint ${req.method} ${API_PREFIX}${endpoint}: see ${API_PREFIX}/openapi.json.`).toResponse(endpoint);
  return withHeaders(res, decision && new Headers(decision.headers));
}

/**
 * The merchant API's refusal route (app/api/v2/edge-refusal), where the proxy sends a request under /api/v2 that it
 * refuses before routing (a path that Next.js would otherwise try to decode), with the refused path and query in the
 * `url` parameter. Whatever reaches it, its answer depends only on what the client sent:
 *
 * - Next.js (16: `next dev`, `next start` and the standalone server alike) hands the route the refused request's own
 *   URL, not the one the proxy rewrote it to: the guard finds the same problem in it as the proxy did and refuses it;
 * - called by its own path (by a client, or by a host that hands over the rewritten URL), it finds the problem again
 *   with the same `requestProblem`, on the path and query in `url` and the request's own Content-Length, and answers
 *   what the request it names gets. A `url` with no problem, or none, is a path that no route takes: a 404.
 */
export const merchantRefusalRoute = guardedRoute(async (req: Request) => (await givenRefusal(req)) ?? fallback(req), {
  // The request's own problem (a body declared too large) is that of the path and query it names, when they are the API's.
  refuse: async (req, problem) => (await givenRefusal(req)) ?? merchantEdgeRefusal(req, new URL(req.url).pathname, problem),
});

const RAW_URL = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/** The refusal of the path and query named by a request to the refusal route's own path, when they are the API's and have a problem. */
async function givenRefusal(req: Request): Promise<Response | undefined> {
  const url = new URL(req.url);
  if (url.pathname !== API_PREFIX + EDGE_REFUSAL_PATH) return undefined;
  const given = url.searchParams.get(EDGE_REFUSAL_QUERY);
  // Only a path and query as a request carries them (the characters a URL holds unencoded, and escapes): a decoded
  // one would have its text repeated back as the endpoint the request named.
  if (given === null || !RAW_URL.test(given) || surfaceOf(pathOf(given)) !== "merchant") return undefined;
  const problem = requestProblem(req, { pathAndQuery: given });
  return problem && merchantEdgeRefusal(req, pathOf(given), problem);
}

/** The edge's refusal of a request for `pathname` (lib/platform/http/edge-guard.ts), in the API's envelope, counted against the client's address. */
async function merchantEdgeRefusal(req: Request, pathname: string, problem: RequestProblem): Promise<Response> {
  // A broken path is not repeated back, not even in a 429's meta.
  const endpoint = urlProblem(pathname) ? "/" : pathname.slice(API_PREFIX.length) || "/";
  const decision = await anonymousDecision(req);
  if (decision && !decision.allowed) return rateLimitedResponse(endpoint, decision);
  return withHeaders(edgeError(pathname, problem.status, problem.message), decision && new Headers(decision.headers));
}

function withHeaders(res: Response, extra: Headers | undefined): Response {
  if (!extra) return res;
  for (const [k, v] of extra) if (!res.headers.has(k)) res.headers.set(k, v);
  return res;
}

export function errorResponse(err: unknown, endpoint: string, routeId: string): Response {
  if (err instanceof V2Error) return err.toResponse(endpoint);
  const refusal = err instanceof DomainError ? v2ErrorOf(err) : undefined;
  if (refusal) return refusal.toResponse(endpoint, refusal.status === 401 ? { "WWW-Authenticate": 'Basic realm="api", Bearer' } : undefined);
  if (err instanceof BodyError) return new V2Error(err.status, err.status === 413 ? "payload_too_large" : "parse_error", err.message).toResponse(endpoint);
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue?.path.map(String).join(".") || "request";
    return new V2Error(400, "invalid_param", `Invalid parameter ${field}: ${issue?.message ?? "invalid"}`).toResponse(endpoint);
  }
  if (isDatabaseUnavailable(err)) {
    // Not `create_invoice_failed` "nothing was charged": the commit of a creation may be what went unanswered.
    log.warn({ err, route: routeId }, "merchant API request met the database unavailable");
    return new V2Error(503, "service_unavailable", DATABASE_UNAVAILABLE_MESSAGE).toResponse(endpoint, retryAfter());
  }
  log.error({ err, route: routeId }, "merchant API request failed");
  // The spec's code for an unexpected failure of invoice creation; nothing was charged or held (its transaction undid it).
  if (routeId === "POST /invoices" || routeId === "POST /esims") {
    return new V2Error(500, "create_invoice_failed", "The invoice could not be created; nothing was charged. Try again.").toResponse(endpoint);
  }
  if (routeId === "POST /gift-card-batches") {
    return new V2Error(500, "batch_creation_failed", "The batch could not be created; nothing was charged. Try again.").toResponse(endpoint);
  }
  return new V2Error(500, "internal_error", "Something went wrong on our side. Try again; if it persists, contact support.").toResponse(endpoint);
}

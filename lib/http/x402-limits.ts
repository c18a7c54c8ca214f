import { config } from "@/lib/config";
import { getRateLimiter, rateLimitMessage, type RateLimitDecision } from "@/lib/ratelimit";
import { ApiError } from "./api-error";

/** 429 with the limit's fields and Retry-After. */
export class RateLimitedError extends ApiError {
  constructor(readonly decision: RateLimitDecision) {
    super(429, "RATE_LIMITED", rateLimitMessage(decision), { retry_after: decision.retryAfterSec });
  }

  override toResponse(headers?: HeadersInit): Response {
    const merged = new Headers(headers);
    for (const [k, v] of Object.entries(this.decision.headers)) merged.set(k, v);
    return super.toResponse(merged);
  }
}

/**
 * The client's address as the proxy in front of the shop reports it, or undefined when nothing says. By default the
 * proxy is trusted to replace the headers (Vercel and most platforms do): `X-Real-IP`, else the first
 * `X-Forwarded-For` entry (`next start` fills the header with the socket's address when a direct connection has none).
 * With `TRUSTED_PROXY_HOPS=n`, n proxies append to `X-Forwarded-For`: the address n entries from the right is the one
 * the outermost proxy saw, and anything a client wrote before it is ignored. A loopback address is not a client to
 * count: it is this machine (the operator, a local agent, or a proxy on the same host that does not pass the client's
 * address on). Takes a Request, or the headers alone (server actions).
 */
export function clientIp(from: Request | { get(name: string): string | null }, hops: number | undefined = config().trustedProxyHops): string | undefined {
  // Not `"headers" in from`: Next.js's headers() object has a `headers` property of its own (the raw Node headers).
  const headers = from instanceof Request ? from.headers : from;
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const ip = hops === undefined ? headers.get("x-real-ip")?.trim() || forwarded[0] : forwarded[forwarded.length - hops];
  if (!ip || /^(127\.|::1$|::ffff:127\.)/.test(ip)) return undefined;
  return ip;
}

/**
 * The /x402 API's generous limits: per client address and per signed-in wallet (lib/ratelimit). Throws a 429
 * `RATE_LIMITED` ApiError with Retry-After when either is spent.
 */
export async function checkX402Limits(req: Request, wallet?: string): Promise<void> {
  const ip = clientIp(req);
  if (!ip && !wallet) return;
  const decision = await (await getRateLimiter()).consumeX402({ ip, wallet });
  if (!decision.allowed) throw new RateLimitedError(decision);
}

import { config } from "@/lib/platform/config";
import { getRateLimiter, rateLimitMessage, type RateLimitDecision } from "@/lib/platform/ratelimit";
import { ApiError } from "@/lib/platform/http/api-error";
import { PEER_HEADER, peerAddressInstalled } from "@/lib/platform/http/peer-address";

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
 * The client's address, or undefined when it is this machine. Where it comes from:
 * - `TRUSTED_PROXY_HOPS=n`: n proxies append to `X-Forwarded-For`; the address n entries from the right is the one
 *   the outermost proxy saw, and anything a client wrote before it is ignored. A header of fewer entries did not come
 *   through them all (a client that reached the shop directly): the socket's address is the client's, as without
 *   proxies, so that leaving the header out does not leave the address uncounted;
 * - on Vercel (`VERCEL=1`): the platform replaces `X-Real-IP` and `X-Forwarded-For` with the client's address;
 * - otherwise the socket's address, written by the server itself (lib/platform/http/peer-address.ts): headers a client sends
 *   are not believed, so `X-Real-IP: 127.0.0.1` is just a header.
 * A loopback address is not a client to count: it is this machine (the operator, a local agent). Behind a proxy on
 * the same host, set TRUSTED_PROXY_HOPS, or every client is that proxy. Takes a Request, or the headers alone (server
 * actions).
 */
export function clientIp(
  from: Request | { get(name: string): string | null },
  { hops = config().trustedProxyHops, vercel = config().vercel }: { hops?: number; vercel?: boolean } = {},
): string | undefined {
  // Not `"headers" in from`: Next.js's headers() object has a `headers` property of its own (the raw Node headers).
  const headers = from instanceof Request ? from.headers : from;
  const forwarded = () =>
    (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const peer = () => (peerAddressInstalled() ? (headers.get(PEER_HEADER) ?? undefined) : undefined);
  let ip: string | undefined;
  if (hops !== undefined) {
    const chain = forwarded();
    ip = chain.length >= hops ? chain.at(-hops) : peer();
  } else if (vercel) ip = headers.get("x-real-ip")?.trim() || forwarded()[0];
  else ip = peer();
  if (!ip || /^(127\.|::1$|::ffff:127\.)/.test(ip)) return undefined;
  return ip;
}

/**
 * The /x402 API's generous limits: per client address and per signed-in wallet (lib/platform/ratelimit). Throws a 429
 * `RATE_LIMITED` ApiError with Retry-After when either is spent.
 */
export async function checkX402Limits(req: Request, wallet?: string, { address = true }: { address?: boolean } = {}): Promise<void> {
  const ip = address ? clientIp(req) : undefined;
  if (!ip && !wallet) return;
  const decision = await (await getRateLimiter()).consumeX402({ ip, wallet });
  if (!decision.allowed) throw new RateLimitedError(decision);
}

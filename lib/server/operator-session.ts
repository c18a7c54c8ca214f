import { createHash, hkdfSync, timingSafeEqual } from "node:crypto";
import { signToken, verifyToken, type TokenKind, sessionKey } from "@/lib/identity";
import type { RateLimiter } from "@/lib/platform/ratelimit";

/**
 * The operator's browser session (the /operator page): signed in with the admin token, kept in a cookie of its own.
 * The token is never stored: the session carries a digest of it, so that a new ADMIN_TOKEN ends every session.
 */
const OPERATOR_SESSION: TokenKind = { audience: "x402-storefront/operator", maxLength: 1024 };
/** A working day, as the merchant dashboard's. */
export const OPERATOR_SESSION_TTL_SECONDS = 12 * 60 * 60;
export const OPERATOR_COOKIE = "operator_session";
export const OPERATOR_PATH = "/operator";

/** Its own key, derived from the session secret (a wallet or dashboard session never passes for it). */
function operatorKey(secret: string | Uint8Array = sessionKey()): Uint8Array {
  const ikm = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  return new Uint8Array(hkdfSync("sha256", ikm, new Uint8Array(0), "x402-storefront operator session v1", 32));
}

const digest = (adminToken: string) => createHash("sha256").update(`operator session:${adminToken}`).digest("base64url");

/** Whether `given` is the admin token, compared in constant time. */
export function isAdminToken(given: string, adminToken: string | undefined): boolean {
  if (!adminToken) return false;
  const a = Buffer.from(digest(given));
  const b = Buffer.from(digest(adminToken));
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a sign-in to the operator page. Wrong tokens count against the dashboard's sign-in limit of the client's
 * address only: counted under one subject for all, ten of anyone's would lock the operator out too. A client without
 * an address (this machine) is counted under the operator's own subject. The admin API and `npm run admin` are not
 * affected by them.
 */
export async function checkOperatorSignIn(
  given: unknown,
  { adminToken, limiter, ip }: { adminToken: string; limiter: RateLimiter; ip: string | undefined },
): Promise<{ ok: true } | { ok: false; error: string }> {
  const subject = ip ? { ip } : { credential: "operator" };
  const decision = await limiter.consumeSignIn(subject);
  if (!decision.allowed) return { ok: false, error: `Too many attempts: try again in ${Math.ceil((decision.retryAfterSec ?? 60) / 60)} minute(s).` };
  if (typeof given !== "string" || !isAdminToken(given.trim(), adminToken)) return { ok: false, error: "That is not the admin token." };
  await limiter.forgiveSignIn(subject);
  return { ok: true };
}

type Options = { secret?: string | Uint8Array; now?: Date };

export async function issueOperatorSession(adminToken: string, opts: Options = {}): Promise<{ token: string; expiresAt: Date }> {
  return signToken(OPERATOR_SESSION, operatorKey(opts.secret), {
    subject: "operator",
    claims: { atd: digest(adminToken) },
    ttlSeconds: OPERATOR_SESSION_TTL_SECONDS,
    now: opts.now,
  });
}

/** Whether a cookie's token is a live operator session for the current admin token. Never throws for a bad token. */
export async function isOperatorSession(token: string | undefined, adminToken: string | undefined, opts: Options = {}): Promise<boolean> {
  if (!adminToken) return false;
  const payload = await verifyToken(OPERATOR_SESSION, operatorKey(opts.secret), token, { requiredClaims: ["atd"], now: opts.now });
  return payload?.sub === "operator" && payload.atd === digest(adminToken);
}

export function operatorCookieOptions(origin: string, expiresAt: Date) {
  return { httpOnly: true, sameSite: "lax", secure: origin.startsWith("https:"), path: OPERATOR_PATH, expires: expiresAt } as const;
}

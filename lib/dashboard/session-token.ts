import { hkdfSync } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { sessionKey } from "@/lib/identity/session-key";

/** Issuer as for every token of the shop; an audience of its own: a wallet session (`aud` x402-storefront) is not a dashboard session. */
const ISSUER = "x402-storefront";
const AUDIENCE = "x402-storefront/dashboard";
/** How long a dashboard sign-in lasts: a working day. */
export const DASHBOARD_SESSION_TTL_SECONDS = 12 * 60 * 60;
// A real token is about 250 characters; bounds the work a junk cookie can cause.
const MAX_TOKEN_LENGTH = 1024;
const MERCHANT_ID = /^mer_[0-9A-HJKMNP-TV-Z]{26}$/;
const CREDENTIAL_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

/** A signed-in dashboard session: the merchant, the credential it signed in with, and when it ends. */
export type DashboardSession = { merchantId: string; credentialId: string; expiresAt: Date };

type KeyOption = {
  /** The shop's session secret (SESSION_SECRET or the generated one); the process's own when omitted (tests pass theirs). */
  secret?: string | Uint8Array;
  /** The clock, for tests. */
  now?: Date;
};

/**
 * The HMAC key of dashboard sessions: derived from the shop's session secret (HKDF-SHA256 with a label of its own),
 * so that it is never the key of wallet session tokens: neither kind of token can pass for the other, whatever its claims.
 */
export function dashboardKeyFrom(secret: string | Uint8Array): Uint8Array {
  const ikm = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  return new Uint8Array(hkdfSync("sha256", ikm, new Uint8Array(0), "x402-storefront dashboard session v1", 32));
}

let processKey: Uint8Array | undefined;
const keyOf = (secret: KeyOption["secret"]) => (secret === undefined ? (processKey ??= dashboardKeyFrom(sessionKey())) : dashboardKeyFrom(secret));

/** A signed session token (HS256 JWT: `sub` the merchant, `cid` the credential used to sign in) for the dashboard cookie. */
export async function issueDashboardSession(
  who: { merchantId: string; credentialId: string },
  opts: KeyOption & { ttlSeconds?: number } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const ttl = opts.ttlSeconds ?? DASHBOARD_SESSION_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error(`Dashboard session lifetime must be a positive whole number of seconds, got ${ttl}`);
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const token = await new SignJWT({ cid: who.credentialId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(who.merchantId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(keyOf(opts.secret));
  return { token, expiresAt: new Date((iat + ttl) * 1000) };
}

/** The session a token carries, or null when it is malformed, tampered with, expired or not a dashboard session. Never throws for a bad token. */
export async function verifyDashboardSession(token: string | undefined, opts: KeyOption = {}): Promise<DashboardSession | null> {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  // Outside the try: a key that cannot be read is a server fault and must not pass for a bad token.
  const key = keyOf(opts.secret);
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "exp", "cid"],
      currentDate: opts.now,
    });
    const { sub, cid, exp } = payload;
    if (typeof sub !== "string" || !MERCHANT_ID.test(sub) || typeof cid !== "string" || !CREDENTIAL_ID.test(cid) || typeof exp !== "number") return null;
    return { merchantId: sub, credentialId: cid, expiresAt: new Date(exp * 1000) };
  } catch {
    return null;
  }
}

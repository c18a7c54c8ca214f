import { hkdfSync } from "node:crypto";
import { signToken, verifyToken, type TokenKind, sessionKey } from "@/lib/identity";

/** An audience of its own: a wallet session (`aud` x402-storefront) is not a dashboard session. A real one is about 250 characters. */
const DASHBOARD_SESSION: TokenKind = { audience: "x402-storefront/dashboard", maxLength: 1024 };
/** How long a dashboard sign-in lasts: a working day. */
export const DASHBOARD_SESSION_TTL_SECONDS = 12 * 60 * 60;
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
  const ttlSeconds = opts.ttlSeconds ?? DASHBOARD_SESSION_TTL_SECONDS;
  return signToken(DASHBOARD_SESSION, keyOf(opts.secret), { subject: who.merchantId, claims: { cid: who.credentialId }, ttlSeconds, now: opts.now });
}

/** The session a token carries, or null when it is malformed, tampered with, expired or not a dashboard session. Never throws for a bad token. */
export async function verifyDashboardSession(token: string | undefined, opts: KeyOption = {}): Promise<DashboardSession | null> {
  const payload = await verifyToken(DASHBOARD_SESSION, keyOf(opts.secret), token, { requiredClaims: ["cid"], now: opts.now });
  if (!payload) return null;
  const { sub, cid, exp } = payload;
  if (!MERCHANT_ID.test(sub) || typeof cid !== "string" || !CREDENTIAL_ID.test(cid)) return null;
  return { merchantId: sub, credentialId: cid, expiresAt: new Date(exp * 1000) };
}

import { SignJWT, jwtVerify } from "jose";
import { sessionKey } from "./session-key";
import { parseWalletId, walletId, type Wallet } from "./wallet";

/** Both issuer and audience: a token of ours is accepted only by us, and only as a session token. */
const TOKEN_PARTY = "x402-storefront";
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;
// Far above a real token (about 300 characters); bounds the work a junk header can cause.
const MAX_TOKEN_LENGTH = 2048;

type KeyOption = {
  /** The HMAC key; the process's session key when omitted (tests pass their own). */
  secret?: string | Uint8Array;
  /** The clock, for tests. */
  now?: Date;
};

const keyOf = (secret: string | Uint8Array | undefined) =>
  secret === undefined ? sessionKey() : typeof secret === "string" ? new TextEncoder().encode(secret) : secret;

/** A session token (HS256 JWT, `sub` = CAIP-10 wallet id) for the X-Access-Token header. */
export async function issueSessionToken(wallet: Wallet, opts: KeyOption & { ttlSeconds?: number } = {}): Promise<{ token: string; expiresIn: number }> {
  const ttl = opts.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error(`Session token lifetime must be a positive whole number of seconds, got ${ttl}`);
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(TOKEN_PARTY)
    .setAudience(TOKEN_PARTY)
    .setSubject(walletId(wallet))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(keyOf(opts.secret));
  return { token, expiresIn: ttl };
}

/** The wallet a session token was issued to, or null when it is malformed, tampered with, expired or not ours. Never throws for a bad token. */
export async function verifySessionToken(token: string, opts: KeyOption = {}): Promise<Wallet | null> {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  // Outside the try: a key that cannot be read is a server fault and must not pass for a bad token.
  const key = keyOf(opts.secret);
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: TOKEN_PARTY,
      audience: TOKEN_PARTY,
      requiredClaims: ["sub", "exp"],
      currentDate: opts.now,
    });
    return typeof payload.sub === "string" ? parseWalletId(payload.sub) : null;
  } catch {
    return null;
  }
}

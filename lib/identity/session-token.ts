import { signToken, TOKEN_ISSUER, verifyToken, type TokenKind } from "./jwt";
import { sessionKey } from "./session-key";
import { parseWalletId, walletId, type Wallet } from "./wallet";

/** Wallet session tokens: the audience is the issuer's name (a dashboard session has an audience of its own). */
const WALLET_SESSION: TokenKind = { audience: TOKEN_ISSUER, maxLength: 2048 };
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

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
  const ttlSeconds = opts.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const { token } = await signToken(WALLET_SESSION, keyOf(opts.secret), { subject: walletId(wallet), ttlSeconds, now: opts.now });
  return { token, expiresIn: ttlSeconds };
}

/** The wallet a session token was issued to, or null when it is malformed, tampered with, expired or not ours. Never throws for a bad token. */
export async function verifySessionToken(token: string, opts: KeyOption = {}): Promise<Wallet | null> {
  const payload = await verifyToken(WALLET_SESSION, keyOf(opts.secret), token, { now: opts.now });
  return payload ? parseWalletId(payload.sub) : null;
}

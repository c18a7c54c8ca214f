import { SignJWT, jwtVerify, type JWTPayload } from "jose";

/** Every token the shop signs names it as the issuer. */
export const TOKEN_ISSUER = "x402-storefront";

/**
 * One kind of token the shop signs (HS256 JWT): the audience that only this kind carries, its own key, and a bound on
 * the length a presented token may have (far above a real one; it bounds the work a junk header or cookie can cause).
 */
export type TokenKind = { audience: string; maxLength: number };

/** Signs a token of `kind` for `subject`, valid `ttlSeconds` (a positive whole number) from `now`. */
export async function signToken(
  kind: TokenKind,
  key: Uint8Array,
  token: { subject: string; claims?: Record<string, string>; ttlSeconds: number; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const ttl = token.ttlSeconds;
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error(`A token's lifetime must be a positive whole number of seconds, got ${ttl}`);
  const iat = Math.floor((token.now ?? new Date()).getTime() / 1000);
  const signed = await new SignJWT(token.claims ?? {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(kind.audience)
    .setSubject(token.subject)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(key);
  return { token: signed, expiresAt: new Date((iat + ttl) * 1000) };
}

/**
 * The claims of a token of `kind` (its subject and expiry always there), or null when it is malformed, tampered with,
 * expired, too long or of another kind. Never throws for a bad token. The key is read by the caller, outside: a key
 * that cannot be read is a server fault and must not pass for a bad token.
 */
export async function verifyToken(
  kind: TokenKind,
  key: Uint8Array,
  token: unknown,
  opts: { requiredClaims?: string[]; now?: Date } = {},
): Promise<(JWTPayload & { sub: string; exp: number }) | null> {
  if (typeof token !== "string" || token.length === 0 || token.length > kind.maxLength) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience: kind.audience,
      requiredClaims: ["sub", "exp", ...(opts.requiredClaims ?? [])],
      currentDate: opts.now,
    });
    return typeof payload.sub === "string" && typeof payload.exp === "number" ? (payload as JWTPayload & { sub: string; exp: number }) : null;
  } catch {
    return null;
  }
}

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random identifier or secret: `bytes` random bytes in base64url (no padding), with a prefix that says what it is. */
export function randomToken(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

/** What is stored of a secret: its SHA-256 (secrets are 256-bit random, so a slow hash would add nothing). */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Whether a presented secret matches a stored hash, in time that does not depend on where they differ. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new webhook signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export const isWebhookSecret = (s: string) => /^whsec_[A-Za-z0-9+/]{43}=$/.test(s);

import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { config, type Config } from "@/lib/platform/config";
import { sessionKeyFrom } from "@/lib/identity";

/**
 * The shop's own gift card codes: 20 characters of Crockford's base32 (100 random bits), shown in groups of four
 * (`7K2Q-M9XD-4RTA-0PZE-H3VN`). A code is found by its keyed hash and read back from its sealed copy; neither
 * reveals it without the key, so a dump of the database alone gives no card away.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 20;
/** The randomness of a code, in bits. */
export const CODE_BITS = CODE_LENGTH * 5;

/** A new code, as shown to people. */
export function newGiftCardCode(): string {
  const bytes = randomBytes(Math.ceil(CODE_BITS / 8));
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return formatCode(code);
}

/** `7K2QM9XD…` in groups of four. */
export function formatCode(normalized: string): string {
  return normalized.match(/.{1,4}/g)!.join("-");
}

/**
 * The code as it is hashed, or undefined when the text cannot be a code: case, spaces and dashes do not matter, and the
 * letters people confuse with digits are read as Crockford reads them (O as 0, I and L as 1).
 */
export function normalizeCode(text: string): string | undefined {
  if (text.length > 64) return undefined;
  const code = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length !== CODE_LENGTH) return undefined;
  for (const ch of code) if (!ALPHABET.includes(ch)) return undefined;
  return code;
}

type CodeKeys = { hash: Buffer; seal: Buffer };
let cached: CodeKeys | undefined;

/** The keys of the process's config: GIFT_CARD_SECRET, else the session secret (SESSION_SECRET or the devnet's own). */
function keys(): CodeKeys {
  cached ??= codeKeysFrom(config());
  return cached;
}

export function codeKeysFrom(c: Pick<Config, "giftCardSecret" | "sessionSecret" | "dataDir">): CodeKeys {
  const secret = c.giftCardSecret ? new TextEncoder().encode(c.giftCardSecret) : sessionKeyFrom(c);
  const derive = (info: string) => Buffer.from(hkdfSync("sha256", secret, "x402-storefront gift cards", info, 32));
  return { hash: derive("code hash"), seal: derive("code seal") };
}

/** The keyed hash a card is found by (hex). `code` is normalized (normalizeCode). */
export function codeHash(code: string, k: CodeKeys = keys()): string {
  return createHmac("sha256", k.hash).update(code).digest("hex");
}

/** The code encrypted for its merchant (AES-256-GCM, bound to its hash): `v1.<base64url of iv, text, tag>`. */
export function sealCode(code: string, hash: string, k: CodeKeys = keys()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", k.seal, iv);
  cipher.setAAD(Buffer.from(hash));
  const text = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, text, cipher.getAuthTag()]).toString("base64url")}`;
}

/** A new card's code with what the database keeps of it: the hash it is found by, a sealed copy, its last four characters. */
export type MintedCode = { code: string; hash: string; sealed: string; last4: string };

/** Makes a new code (normalized) and what the database keeps of it: every card, of a batch or bought alone, is made here. */
export function mintCode(k: CodeKeys = keys()): MintedCode {
  const code = normalizeCode(newGiftCardCode())!;
  const hash = codeHash(code, k);
  return { code, hash, sealed: sealCode(code, hash, k), last4: code.slice(-4) };
}

/** The code of a sealed copy (normalized); throws when the copy was not sealed under this key for this hash. */
export function openCode(sealed: string, hash: string, k: CodeKeys = keys()): string {
  if (!sealed.startsWith("v1.")) throw new Error("Unknown sealed code format");
  const raw = Buffer.from(sealed.slice(3), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", k.seal, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(hash));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
}

/** A code kept sealed outside its card (a bought card's order): the sealed copy and the hash it is bound to. */
export type SealedCode = { sealed: string; hash: string };

/** The code of a sealed copy, as shown to people (`7K2Q-M9XD-…`). */
export function openSealedCode(s: SealedCode): string {
  return formatCode(openCode(s.sealed, s.hash));
}

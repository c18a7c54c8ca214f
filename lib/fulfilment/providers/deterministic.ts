import { createHmac } from "node:crypto";

/** Letters and digits that cannot be misread for one another (no 0/O, 1/I/L). */
export const UNAMBIGUOUS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const DIGITS = "0123456789";

/**
 * Pseudo-random but reproducible values for one order: HMAC-SHA256 under a secret key over the order id and a label,
 * so the same order always gets the same code, and nobody without the key can work out another order's code from
 * its (public) id.
 */
export function orderRandom(key: string, orderId: string) {
  const bytes = (label: string, n: number): Buffer => {
    const blocks: Buffer[] = [];
    for (let i = 0; blocks.length * 32 < n; i++) blocks.push(createHmac("sha256", key).update(`${orderId}\u0000${label}\u0000${i}`).digest());
    return Buffer.concat(blocks).subarray(0, n);
  };
  /** `n` characters of `alphabet` (the modulo bias is irrelevant for made-up codes). */
  const chars = (label: string, n: number, alphabet: string = UNAMBIGUOUS): string => [...bytes(label, n)].map((b) => alphabet[b % alphabet.length]).join("");
  return {
    chars,
    digits: (label: string, n: number): string => chars(label, n, DIGITS),
    /** An integer in [0, n). */
    int: (label: string, n: number): number => bytes(label, 4).readUInt32BE(0) % n,
  };
}

export type OrderRandom = ReturnType<typeof orderRandom>;

/** "ABCDEFGH" in groups [4, 4] joined by "-": "ABCD-EFGH". */
export function group(s: string, sizes: number[], separator: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(s.slice(at, at + size));
    at += size;
  }
  return parts.join(separator);
}

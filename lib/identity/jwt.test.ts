import { describe, expect, it } from "vitest";
import { signToken, verifyToken, type TokenKind } from "./jwt";

const A: TokenKind = { audience: "x402-storefront/a", maxLength: 1024 };
const B: TokenKind = { audience: "x402-storefront/b", maxLength: 1024 };
const key = new TextEncoder().encode("a-test-key-of-thirty-two-bytes!!");
const now = new Date("2026-11-25T12:00:00Z");

describe("the shop's signed tokens", () => {
  it("carry the subject, the claims and the expiry of their kind, and are refused as another kind with the same key", async () => {
    const { token, expiresAt } = await signToken(A, key, { subject: "mer_1", claims: { cid: "key_1" }, ttlSeconds: 60, now });
    expect(expiresAt).toEqual(new Date(now.getTime() + 60_000));
    expect(await verifyToken(A, key, token, { requiredClaims: ["cid"], now })).toMatchObject({
      sub: "mer_1",
      cid: "key_1",
      iss: "x402-storefront",
      aud: A.audience,
    });
    expect(await verifyToken(B, key, token, { now })).toBeNull();
    expect(await verifyToken(A, new TextEncoder().encode("another-key-of-thirty-two-bytes!"), token, { now })).toBeNull();
    expect(await verifyToken(A, key, token, { requiredClaims: ["missing"], now })).toBeNull();
  });

  it("are refused once expired, too long or not tokens at all, and never throw for them", async () => {
    const { token } = await signToken(A, key, { subject: "s", ttlSeconds: 60, now });
    expect(await verifyToken(A, key, token, { now: new Date(now.getTime() + 61_000) })).toBeNull();
    expect(await verifyToken({ ...A, maxLength: token.length - 1 }, key, token, { now })).toBeNull();
    for (const junk of [undefined, "", "a.b.c", "\u0000", 42]) expect(await verifyToken(A, key, junk, { now })).toBeNull();
  });

  it("need a positive whole number of seconds to live", async () => {
    for (const ttlSeconds of [0, -1, 1.5]) await expect(signToken(A, key, { subject: "s", ttlSeconds })).rejects.toThrow(/positive whole number/);
  });
});

import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { issueSessionToken, verifySessionToken } from "./session-token";
import type { Wallet } from "./wallet";

const secret = "test-secret-0123456789-abcdefghijklmnop";
const evm: Wallet = { chainId: "eip155:8453", address: "0xeaA9349c8fD27f2aa8125737C0D1a57455B5fBb8" };
const sol: Wallet = { chainId: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", address: "7yAWzieVkFFBZVeGqf7Gwb9vuSacRjRBvPhSrWz3iYaW" };

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const claims = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));

describe("session tokens", () => {
  it("round-trips EVM and Solana wallets through the CAIP-10 subject", async () => {
    for (const wallet of [evm, sol]) {
      const { token, expiresIn } = await issueSessionToken(wallet, { secret });
      expect(expiresIn).toBe(24 * 60 * 60);
      expect(await verifySessionToken(token, { secret })).toEqual(wallet);
      const c = claims(token);
      expect(c).toMatchObject({ iss: "x402-storefront", aud: "x402-storefront", sub: `${wallet.chainId}:${wallet.address}` });
      expect(c.exp - c.iat).toBe(expiresIn);
    }
  });

  it("writes EVM subjects checksummed, whatever case the wallet came in", async () => {
    const { token } = await issueSessionToken({ ...evm, address: evm.address.toLowerCase() }, { secret });
    expect(claims(token).sub).toBe(`eip155:8453:${evm.address}`);
    expect(await verifySessionToken(token, { secret })).toEqual(evm);
  });

  it("honours a custom lifetime and refuses an expired token", async () => {
    const issued = new Date("2026-01-01T00:00:00Z");
    const { token, expiresIn } = await issueSessionToken(evm, { secret, ttlSeconds: 60, now: issued });
    expect(expiresIn).toBe(60);
    expect(await verifySessionToken(token, { secret, now: new Date(issued.getTime() + 59_000) })).toEqual(evm);
    expect(await verifySessionToken(token, { secret, now: new Date(issued.getTime() + 61_000) })).toBeNull();
    expect(await verifySessionToken(token, { secret })).toBeNull();
    await expect(issueSessionToken(evm, { secret, ttlSeconds: 0 })).rejects.toThrow();
  });

  it("refuses a token with a tampered payload or signature", async () => {
    const { token } = await issueSessionToken(evm, { secret });
    const [head, body, sig] = token.split(".") as [string, string, string];
    const otherSub = b64url({ ...claims(token), sub: "eip155:8453:0x0000000000000000000000000000000000000001" });
    expect(await verifySessionToken(`${head}.${otherSub}.${sig}`, { secret })).toBeNull();
    const flipped = sig[5] === "A" ? "B" : "A";
    expect(await verifySessionToken(`${head}.${body}.${sig.slice(0, 5)}${flipped}${sig.slice(6)}`, { secret })).toBeNull();
    expect(await verifySessionToken(`${head}.${body}.`, { secret })).toBeNull();
    // alg "none" with the signature stripped.
    expect(await verifySessionToken(`${b64url({ alg: "none" })}.${body}.`, { secret })).toBeNull();
  });

  it("refuses a token signed with another secret", async () => {
    const { token } = await issueSessionToken(evm, { secret: "another-secret-0123456789-abcdefghijklm" });
    expect(await verifySessionToken(token, { secret })).toBeNull();
  });

  it("refuses a correctly signed JWT that is not our session token", async () => {
    const key = new TextEncoder().encode(secret);
    const base = () => new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuedAt().setExpirationTime("1h");
    const wrongAudience = await base().setIssuer("x402-storefront").setAudience("other").setSubject(`eip155:8453:${evm.address}`).sign(key);
    const noExpiry = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("x402-storefront")
      .setAudience("x402-storefront")
      .setSubject(`eip155:8453:${evm.address}`)
      .sign(key);
    const badSubject = await base().setIssuer("x402-storefront").setAudience("x402-storefront").setSubject("user-42").sign(key);
    for (const token of [wrongAudience, noExpiry, badSubject]) expect(await verifySessionToken(token, { secret })).toBeNull();
  });

  it("answers null for garbage, never throwing", async () => {
    for (const garbage of ["", "abc", "a.b.c", "....", "eyJhbGciOiJIUzI1NiJ9.e30.", "x".repeat(5000), null, undefined, 42]) {
      expect(await verifySessionToken(garbage as string, { secret })).toBeNull();
    }
  });
});

import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { issueSessionToken, verifySessionToken } from "@/lib/identity/session-token";
import { dashboardKeyFrom, DASHBOARD_SESSION_TTL_SECONDS, issueDashboardSession, verifyDashboardSession } from "./session-token";

const secret = "test-secret-0123456789-abcdefghijklmnop";
const who = { merchantId: "mer_01JZ0000000000000000000000", credentialId: "key_01JZ0000000000000000000001" };
const claims = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("dashboard session tokens", () => {
  it("carry the merchant, the credential used to sign in and a 12-hour expiry", async () => {
    const now = new Date("2026-03-01T08:00:00Z");
    const { token, expiresAt } = await issueDashboardSession(who, { secret, now });
    expect(DASHBOARD_SESSION_TTL_SECONDS).toBe(12 * 60 * 60);
    expect(expiresAt).toEqual(new Date("2026-03-01T20:00:00Z"));
    expect(claims(token)).toMatchObject({ iss: "x402-storefront", aud: "x402-storefront/dashboard", sub: who.merchantId, cid: who.credentialId });
    expect(await verifyDashboardSession(token, { secret, now })).toEqual({ ...who, expiresAt });
  });

  it("end at their expiry", async () => {
    const now = new Date("2026-03-01T08:00:00Z");
    const { token } = await issueDashboardSession(who, { secret, now, ttlSeconds: 60 });
    expect(await verifyDashboardSession(token, { secret, now: new Date(now.getTime() + 59_000) })).not.toBeNull();
    expect(await verifyDashboardSession(token, { secret, now: new Date(now.getTime() + 61_000) })).toBeNull();
    await expect(issueDashboardSession(who, { secret, ttlSeconds: 0 })).rejects.toThrow();
  });

  it("refuse a tampered payload or signature, another secret, alg none, and junk", async () => {
    const { token } = await issueDashboardSession(who, { secret });
    const [head, body, sig] = token.split(".") as [string, string, string];
    const otherMerchant = b64url({ ...claims(token), sub: "mer_01JZ0000000000000000000009" });
    expect(await verifyDashboardSession(`${head}.${otherMerchant}.${sig}`, { secret })).toBeNull();
    const flipped = sig[5] === "A" ? "B" : "A";
    expect(await verifyDashboardSession(`${head}.${body}.${sig.slice(0, 5)}${flipped}${sig.slice(6)}`, { secret })).toBeNull();
    expect(await verifyDashboardSession(`${b64url({ alg: "none" })}.${body}.`, { secret })).toBeNull();
    expect(await verifyDashboardSession(token, { secret: `${secret}-other` })).toBeNull();
    for (const junk of [undefined, "", "a.b.c", "x".repeat(5000)]) expect(await verifyDashboardSession(junk, { secret })).toBeNull();
  });

  it("are never wallet session tokens, and wallet tokens are never dashboard sessions", async () => {
    const wallet = { chainId: "eip155:8453", address: "0xeaA9349c8fD27f2aa8125737C0D1a57455B5fBb8" };
    const walletToken = (await issueSessionToken(wallet, { secret })).token;
    expect(await verifyDashboardSession(walletToken, { secret })).toBeNull();
    const { token } = await issueDashboardSession(who, { secret });
    expect(await verifySessionToken(token, { secret })).toBeNull();
    // Even with the dashboard's claims, a token signed with the wallet key (the raw secret) is refused...
    const iat = Math.floor(Date.now() / 1000);
    const forged = (key: Uint8Array, aud: string) =>
      new SignJWT({ cid: who.credentialId })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("x402-storefront")
        .setAudience(aud)
        .setSubject(who.merchantId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 60)
        .sign(key);
    expect(await verifyDashboardSession(await forged(new TextEncoder().encode(secret), "x402-storefront/dashboard"), { secret })).toBeNull();
    // ...and so is one with the dashboard key but the wallet audience.
    expect(await verifyDashboardSession(await forged(dashboardKeyFrom(secret), "x402-storefront"), { secret })).toBeNull();
    expect(await verifyDashboardSession(await forged(dashboardKeyFrom(secret), "x402-storefront/dashboard"), { secret })).not.toBeNull();
  });

  it("refuse well-signed tokens whose ids are not ours", async () => {
    const iat = Math.floor(Date.now() / 1000);
    const sign = (sub: string, cid: unknown) =>
      new SignJWT({ cid })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("x402-storefront")
        .setAudience("x402-storefront/dashboard")
        .setSubject(sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 60)
        .sign(dashboardKeyFrom(secret));
    expect(await verifyDashboardSession(await sign("eip155:8453:0x0", who.credentialId), { secret })).toBeNull();
    expect(await verifyDashboardSession(await sign(who.merchantId, 42), { secret })).toBeNull();
  });
});

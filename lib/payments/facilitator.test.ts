import { generateKeyPairSync } from "node:crypto";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { JWK } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { facilitatorAuthHeaders, remoteFacilitator } from "./facilitator";
import { standInFacilitator, type Credentials, type StandIn } from "@/test/facilitator";

// What a hosted facilitator behind the stand-in answers; the devnet test (x402-exchange.db.test.ts) puts the real one there.
const PAYER = "0x000000000000000000000000000000000000dEaD";
const inner = {
  getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:84532" }], extensions: [], signers: {} }),
  verify: async () => ({ isValid: true, payer: PAYER }),
  settle: async () => ({ success: true, transaction: `0x${"ab".repeat(32)}`, network: "eip155:84532", payer: PAYER }),
} as unknown as FacilitatorClient;
const payload = { x402Version: 2, accepted: {}, payload: {} } as unknown as PaymentPayload;
const requirements = { scheme: "exact", network: "eip155:84532" } as unknown as PaymentRequirements;

const standIns: StandIn[] = [];
async function standIn(credentials: Credentials) {
  const s = await standInFacilitator(inner, credentials);
  standIns.push(s);
  return s;
}
afterEach(async () => {
  for (const s of standIns.splice(0)) await s.close();
});

/** A CDP API key as CDP hands it out: Ed25519 as base64 of seed and public key, or an EC key in PEM (SEC1). */
function cdpKey(kind: "ed25519" | "ec"): { secret: string; publicJwk: JWK; alg: "EdDSA" | "ES256" } {
  if (kind === "ed25519") {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const jwk = privateKey.export({ format: "jwk" });
    const secret = Buffer.concat([Buffer.from(jwk.d!, "base64url"), Buffer.from(jwk.x!, "base64url")]).toString("base64");
    return { secret, publicJwk: publicKey.export({ format: "jwk" }) as JWK, alg: "EdDSA" };
  }
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { secret: privateKey.export({ format: "pem", type: "sec1" }) as string, publicJwk: publicKey.export({ format: "jwk" }) as JWK, alg: "ES256" };
}

describe("a remote facilitator that wants credentials", () => {
  it("gets the header line on every call", async () => {
    const s = await standIn({ kind: "header", name: "X-Api-Key", value: "fk_live_0123456789" });
    const client = remoteFacilitator(s.url, { kind: "header", name: "X-Api-Key", value: "fk_live_0123456789" });
    expect((await client.getSupported()).kinds).toHaveLength(1);
    expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
    expect(await client.settle(payload, requirements)).toMatchObject({ success: true });
    expect(s.calls.map((c) => [c.method, c.path, c.accepted])).toEqual([
      ["GET", "/platform/v2/x402/supported", true],
      ["POST", "/platform/v2/x402/verify", true],
      ["POST", "/platform/v2/x402/settle", true],
    ]);
  });

  it("is refused without them, and the shop's client says so", async () => {
    const s = await standIn({ kind: "header", name: "Authorization", value: "Bearer right" });
    await expect(remoteFacilitator(s.url, { kind: "header", name: "Authorization", value: "Bearer wrong" }).getSupported()).rejects.toThrow(/401/);
    await expect(remoteFacilitator(s.url).getSupported()).rejects.toThrow(/401/);
    expect(s.calls.every((c) => !c.accepted)).toBe(true);
  });

  for (const kind of ["ed25519", "ec"] as const) {
    it(`gets a CDP JWT made for each call, signed with an ${kind === "ec" ? "EC (PEM)" : "Ed25519"} key`, async () => {
      const key = cdpKey(kind);
      const s = await standIn({ kind: "cdp", keyId: "organizations/org-1/apiKeys/key-1", publicJwk: key.publicJwk, alg: key.alg });
      const client = remoteFacilitator(s.url, { kind: "cdp", keyId: "organizations/org-1/apiKeys/key-1", keySecret: key.secret });
      expect((await client.getSupported()).kinds).toHaveLength(1);
      expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
      expect(await client.settle(payload, requirements)).toMatchObject({ success: true });
      expect(s.calls.map((c) => c.reason ?? "accepted")).toEqual(["accepted", "accepted", "accepted"]);
    });
  }

  it("signs each call's token for that call only: the settle token does not pass for verify", async () => {
    const key = cdpKey("ed25519");
    const s = await standIn({ kind: "cdp", keyId: "key-2", publicJwk: key.publicJwk, alg: key.alg });
    const headers = await facilitatorAuthHeaders(s.url, { kind: "cdp", keyId: "key-2", keySecret: key.secret })();
    const verify = await fetch(`${s.url}/verify`, {
      method: "POST",
      headers: { ...headers.settle, "Content-Type": "application/json" },
      body: JSON.stringify({ paymentPayload: payload, paymentRequirements: requirements }),
    });
    expect(verify.status).toBe(401);
    expect(s.calls[0]?.reason).toMatch(/the token is for \["POST 127\.0\.0\.1:\d+\/platform\/v2\/x402\/settle"\]/);
    // Another key's token is refused too.
    const other = cdpKey("ed25519");
    const forged = await facilitatorAuthHeaders(s.url, { kind: "cdp", keyId: "key-2", keySecret: other.secret })();
    expect((await fetch(`${s.url}/supported`, { headers: forged.supported })).status).toBe(401);
  });

  it("refuses a CDP secret that is no key", async () => {
    await expect(
      facilitatorAuthHeaders("https://api.cdp.coinbase.com/platform/v2/x402", { kind: "cdp", keyId: "k", keySecret: "not-a-key" })(),
    ).rejects.toThrow(/not a CDP API key secret/);
  });
});

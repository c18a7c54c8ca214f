import { describe, expect, it } from "vitest";
import { createRateLimiter, DASHBOARD_SIGN_IN_LIMITS } from "@/lib/platform/ratelimit";
import { checkOperatorSignIn, isAdminToken, isOperatorSession, issueOperatorSession } from "./operator-session";

const secret = "test session secret of the operator page, long enough";

describe("the operator's session", () => {
  it("holds for the admin token it was signed in with, until it expires", async () => {
    const now = new Date("2026-11-26T10:00:00Z");
    const { token, expiresAt } = await issueOperatorSession("adm_one", { secret, now });
    expect(expiresAt.toISOString()).toBe("2026-11-26T22:00:00.000Z");
    expect(await isOperatorSession(token, "adm_one", { secret, now })).toBe(true);
    expect(await isOperatorSession(token, "adm_one", { secret, now: new Date("2026-11-26T22:00:01Z") })).toBe(false);
  });

  it("ends when the admin token changes, and is refused when tampered with, of another key, or absent", async () => {
    const { token } = await issueOperatorSession("adm_one", { secret });
    expect(await isOperatorSession(token, "adm_two", { secret })).toBe(false);
    expect(await isOperatorSession(token, undefined, { secret })).toBe(false);
    expect(await isOperatorSession(token, "adm_one", { secret: `${secret}!` })).toBe(false);
    expect(await isOperatorSession(`${token.slice(0, -2)}AA`, "adm_one", { secret })).toBe(false);
    expect(await isOperatorSession(undefined, "adm_one", { secret })).toBe(false);
    expect(await isOperatorSession("x".repeat(5000), "adm_one", { secret })).toBe(false);
  });

  it("compares the admin token exactly", () => {
    expect(isAdminToken("adm_one", "adm_one")).toBe(true);
    expect(isAdminToken("adm_one ", "adm_one")).toBe(false);
    expect(isAdminToken("", "adm_one")).toBe(false);
    expect(isAdminToken("adm_one", undefined)).toBe(false);
  });
});

describe("the operator's sign-in", () => {
  const adminToken = "adm_the_real_token_0123456789";

  it("counts wrong tokens per client address: a guesser locks out only itself, not the operator elsewhere or on this machine", async () => {
    const limiter = await createRateLimiter({ kind: "memory" });
    try {
      const attempt = (given: unknown, ip: string | undefined) => checkOperatorSignIn(given, { adminToken, limiter, ip });
      for (let i = 0; i < DASHBOARD_SIGN_IN_LIMITS.ip.points; i++) {
        expect(await attempt(`wrong token ${i}`, "203.0.113.66")).toEqual({ ok: false, error: "That is not the admin token." });
      }
      expect((await attempt(adminToken, "203.0.113.66")).ok).toBe(false);
      expect(await attempt(` ${adminToken}\n`, "198.51.100.7")).toEqual({ ok: true });
      expect(await attempt(adminToken, undefined)).toEqual({ ok: true });
      expect(await attempt(null, "198.51.100.7")).toEqual({ ok: false, error: "That is not the admin token." });
    } finally {
      await limiter.close();
    }
  });

  it("counts a client without an address (this machine) under the operator's own subject", async () => {
    const limiter = await createRateLimiter({ kind: "memory" });
    try {
      for (let i = 0; i < DASHBOARD_SIGN_IN_LIMITS.credential.points; i++) await checkOperatorSignIn("wrong", { adminToken, limiter, ip: undefined });
      const refused = await checkOperatorSignIn(adminToken, { adminToken, limiter, ip: undefined });
      expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many attempts/) });
      expect(await checkOperatorSignIn(adminToken, { adminToken, limiter, ip: "198.51.100.8" })).toEqual({ ok: true });
    } finally {
      await limiter.close();
    }
  });
});

import { describe, expect, it } from "vitest";
import { isAdminToken, isOperatorSession, issueOperatorSession } from "./operator-session";

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

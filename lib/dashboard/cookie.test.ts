import { describe, expect, it } from "vitest";
import { DASHBOARD_COOKIE, dashboardCookieOptions } from "./cookie";

describe("the dashboard session cookie", () => {
  it("is HttpOnly, SameSite=Lax, scoped to /dashboard, expires with the session, and Secure on an https shop", () => {
    const expires = new Date("2026-03-01T20:00:00Z");
    expect(DASHBOARD_COOKIE).toBe("dash_session");
    expect(dashboardCookieOptions("https://shop.example.com", expires)).toEqual({ httpOnly: true, sameSite: "lax", secure: true, path: "/dashboard", expires });
    // Plain http (localhost) must work: a Secure cookie would not be kept there.
    expect(dashboardCookieOptions("http://localhost:3000", expires).secure).toBe(false);
  });
});

/**
 * The dashboard's session cookie. Scoped to /dashboard: every dashboard page and server action (which posts to its
 * page's URL) is under it, and nothing else of the shop receives it. HttpOnly (no script reads it), SameSite=Lax
 * (no cross-site POST carries it), Secure when the shop is served over https; plain http stays possible for localhost.
 */
export const DASHBOARD_COOKIE = "dash_session";
export const DASHBOARD_PATH = "/dashboard";

export type CookieOptions = { httpOnly: true; sameSite: "lax"; secure: boolean; path: string; expires: Date };

export function dashboardCookieOptions(origin: string, expiresAt: Date): CookieOptions {
  return { httpOnly: true, sameSite: "lax", secure: origin.startsWith("https:"), path: DASHBOARD_PATH, expires: expiresAt };
}

/**
 * The dashboard's session, bound to Next.js: the cookie, the current merchant, and the checks every dashboard page
 * and server action makes. The rules themselves (tokens, what ends a session, sign-in) are in lib/dashboard.
 *
 *   const { merchant } = await requireMerchant();         // a page: redirects to the sign-in page when signed out
 *   await assertSameOrigin(); await requireMerchant();   // first lines of every server action that changes something
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { DASHBOARD_COOKIE, dashboardCookieOptions } from "@/lib/dashboard/cookie";
import { issueDashboardSession } from "@/lib/dashboard/session-token";
import { resolveDashboardSession, type SignedIn } from "@/lib/dashboard/session";
import { getDb } from "@/lib/platform/db";
import { isSameOriginPost } from "@/lib/platform/http/origin";
import { requestOrigin } from "@/lib/platform/http/request-origin";
import { clientIp } from "@/lib/api/x402";

export const SIGN_IN_PATH = "/dashboard/sign-in";
export const DASHBOARD_HOME = "/dashboard";

/** The signed-in merchant of this request, or null. Read once per request (the layout and the page share it). */
export const currentMerchant = cache(async (): Promise<SignedIn | null> => {
  const token = (await cookies()).get(DASHBOARD_COOKIE)?.value;
  if (!token) return null;
  return resolveDashboardSession(await getDb(), token);
});

/**
 * The signed-in merchant, or a redirect to the sign-in page: no session, a bad or expired one, its credential revoked
 * or expired since, or the merchant suspended. Every dashboard page and action calls it: a layout alone is not a guard.
 */
export async function requireMerchant(): Promise<SignedIn> {
  const signedIn = await currentMerchant();
  if (!signedIn) redirect(SIGN_IN_PATH);
  return signedIn;
}

export { requestOrigin };

/** The client's address, as the /x402 limits read it (a loopback client is not counted). */
export async function requestIp(): Promise<string | undefined> {
  return clientIp(await headers());
}

/**
 * Refuses a server action posted from another origin. Next.js compares Origin with Host itself, but lets a request
 * without Origin through; a browser always sends one with a POST, so here a missing Origin is refused too.
 * Together with the SameSite=Lax cookie this is the dashboard's CSRF protection.
 */
export async function assertSameOrigin(): Promise<void> {
  if (!isSameOriginPost(await headers())) throw new Error("Refused: this request did not come from the dashboard's own pages.");
}

/** Signs the merchant in: a fresh session cookie for the credential it presented. */
export async function startDashboardSession(who: { merchantId: string; credentialId: string }): Promise<void> {
  const { token, expiresAt } = await issueDashboardSession(who);
  (await cookies()).set(DASHBOARD_COOKIE, token, dashboardCookieOptions(await requestOrigin(), expiresAt));
}

/** Signs out: the cookie is replaced by an expired, empty one with the same name, path and flags. */
export async function endDashboardSession(): Promise<void> {
  (await cookies()).set(DASHBOARD_COOKIE, "", dashboardCookieOptions(await requestOrigin(), new Date(0)));
}

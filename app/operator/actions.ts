"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { OperatorSignInState } from "@/components/operator/sign-in-form";
import { assertSameOrigin, requestIp, requestOrigin } from "@/lib/http/dashboard/auth";
import { processAdminToken } from "@/lib/merchants/admin-token";
import { getRateLimiter } from "@/lib/ratelimit";
import { isAdminToken, issueOperatorSession, OPERATOR_COOKIE, OPERATOR_PATH, operatorCookieOptions } from "@/lib/server/operator-session";

/**
 * Signs the operator in with the admin token. Wrong tokens count against the dashboard's sign-in limits (per address,
 * and for the operator's sign-in as one subject): the admin API and `npm run admin` are not affected by them.
 */
export async function operatorSignInAction(_previous: OperatorSignInState, form: FormData): Promise<OperatorSignInState> {
  await assertSameOrigin();
  const given = form.get("admin_token");
  const token = processAdminToken();
  if (!token) return { error: "This shop has no admin token: set ADMIN_TOKEN and restart it." };
  const limiter = await getRateLimiter();
  const subject = { ip: await requestIp(), credential: "operator" };
  const decision = await limiter.consumeSignIn(subject);
  if (!decision.allowed) return { error: `Too many attempts: try again in ${Math.ceil((decision.retryAfterSec ?? 60) / 60)} minute(s).` };
  if (typeof given !== "string" || !isAdminToken(given.trim(), token)) return { error: "That is not the admin token." };
  await limiter.forgiveSignIn(subject);
  const { token: session, expiresAt } = await issueOperatorSession(token);
  (await cookies()).set(OPERATOR_COOKIE, session, operatorCookieOptions(await requestOrigin(), expiresAt));
  redirect(OPERATOR_PATH);
}

export async function operatorSignOutAction(): Promise<void> {
  await assertSameOrigin();
  (await cookies()).set(OPERATOR_COOKIE, "", operatorCookieOptions(await requestOrigin(), new Date(0)));
  redirect(OPERATOR_PATH);
}

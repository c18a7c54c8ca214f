"use server";

import { redirect } from "next/navigation";
import { signIn } from "@/lib/dashboard";
import type { SignInState } from "@/lib/dashboard/form-states";
import { getDb } from "@/lib/platform/db";
import { assertSameOrigin, DASHBOARD_HOME, requestIp, startDashboardSession } from "@/lib/dashboard/http/auth";
import { getRateLimiter } from "@/lib/platform/ratelimit";

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  await assertSameOrigin();
  const fields = Object.fromEntries(form);
  const mode = fields.mode === "token" ? "token" : "key";
  const outcome = await signIn(await getDb(), fields, { limiter: await getRateLimiter(), ip: await requestIp() });
  if (!outcome.ok) return { mode, error: outcome.error, apiId: typeof fields.api_id === "string" ? fields.api_id.slice(0, 200) : undefined };
  await startDashboardSession({ merchantId: outcome.merchant.id, credentialId: outcome.credential.id });
  redirect(DASHBOARD_HOME);
}

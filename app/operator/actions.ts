"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { OperatorSignInState } from "@/components/operator/sign-in-form";
import { confirmFxRates } from "@/lib/catalog/fx-store";
import { confirmCoinPrice } from "@/lib/catalog/coin-prices";
import { getDb } from "@/lib/platform/db";
import { fxConfirmRequest, coinPriceConfirmRequest } from "@/lib/api/admin/wire";
import { assertSameOrigin, requestIp, requestOrigin } from "@/lib/dashboard/http/auth";
import { processAdminToken } from "@/lib/merchants/admin-token";
import { getRateLimiter } from "@/lib/platform/ratelimit";
import {
  checkOperatorSignIn,
  isOperatorSession,
  issueOperatorSession,
  OPERATOR_COOKIE,
  OPERATOR_PATH,
  operatorCookieOptions,
} from "@/lib/server/operator-session";

/** Signs the operator in with the admin token (wrong tokens are limited per client address: checkOperatorSignIn). */
export async function operatorSignInAction(_previous: OperatorSignInState, form: FormData): Promise<OperatorSignInState> {
  await assertSameOrigin();
  const token = processAdminToken();
  if (!token) return { error: "This shop has no admin token: set ADMIN_TOKEN and restart it." };
  const checked = await checkOperatorSignIn(form.get("admin_token"), { adminToken: token, limiter: await getRateLimiter(), ip: await requestIp() });
  if (!checked.ok) return { error: checked.error };
  const { token: session, expiresAt } = await issueOperatorSession(token);
  (await cookies()).set(OPERATOR_COOKIE, session, operatorCookieOptions(await requestOrigin(), expiresAt));
  redirect(OPERATOR_PATH);
}

export async function operatorSignOutAction(): Promise<void> {
  await assertSameOrigin();
  (await cookies()).set(OPERATOR_COOKIE, "", operatorCookieOptions(await requestOrigin(), new Date(0)));
  redirect(OPERATOR_PATH);
}

/** Applies the exchange rates held for the day the form names (the operator saw the move and confirms it). */
export async function confirmFxRatesAction(form: FormData): Promise<void> {
  await assertSameOrigin();
  if (!(await isOperatorSession((await cookies()).get(OPERATOR_COOKIE)?.value, processAdminToken()))) redirect(OPERATOR_PATH);
  const input = fxConfirmRequest.safeParse({ as_of: form.get("as_of") });
  if (input.success) await confirmFxRates(await getDb(), input.data.as_of);
  redirect(OPERATOR_PATH);
}

/** Applies the price held for the coin the form names (the operator saw the jump and confirms it). */
export async function confirmCoinPriceAction(form: FormData): Promise<void> {
  await assertSameOrigin();
  if (!(await isOperatorSession((await cookies()).get(OPERATOR_COOKIE)?.value, processAdminToken()))) redirect(OPERATOR_PATH);
  const input = coinPriceConfirmRequest.safeParse({ coin: form.get("coin") });
  if (input.success) await confirmCoinPrice(await getDb(), input.data.coin);
  redirect(OPERATOR_PATH);
}

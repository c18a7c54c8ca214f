"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { createKey, revokeKey } from "@/lib/dashboard";
import type { CreateKeyState, RevokeKeyState } from "@/lib/dashboard/form-states";
import { getDb } from "@/lib/platform/db";
import { assertSameOrigin, endDashboardSession, requireMerchant, SIGN_IN_PATH } from "@/lib/dashboard/http/auth";

const KEYS_PATH = "/dashboard/keys";

/** Issues a credential; its secret goes back in this answer only, to be shown once (never in a URL, never stored in clear). */
export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const fields = Object.fromEntries(form);
  const outcome = await createKey(await getDb(), merchant.id, fields);
  if (!outcome.ok) {
    const name = typeof fields.name === "string" ? fields.name.slice(0, 60) : undefined;
    return { error: outcome.error, field: outcome.field, name, kind: fields.kind === "personal" ? "personal" : "business" };
  }
  revalidatePath(KEYS_PATH);
  const { name, kind, api_id, api_secret, api_token } = outcome.issued;
  return { issued: { name, kind, api_id, api_secret, api_token } };
}

/**
 * Revokes a credential, then shows the keys page saying so. Revoking the one this session signed in with ends the
 * session: the next page would refuse it anyway.
 */
export async function revokeKeyAction(_previous: RevokeKeyState, form: FormData): Promise<RevokeKeyState> {
  await assertSameOrigin();
  const { merchant, credential } = await requireMerchant();
  const outcome = await revokeKey(await getDb(), merchant.id, Object.fromEntries(form));
  if (!outcome.ok) return { error: outcome.error };
  if (outcome.id === credential.id) {
    await endDashboardSession();
    redirect(`${SIGN_IN_PATH}?ended=key-revoked`);
  }
  redirect(`${KEYS_PATH}?revoked=${encodeURIComponent(outcome.id)}`);
}

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { enableEndpointFromForm, redeliverFromForm, revealWebhookSecret, rotateWebhookSecretNow, sendTestFromForm } from "@/lib/dashboard/webhooks";
import type { EnableEndpointState, RedeliverWebhookState, SendTestWebhookState, WebhookSecretState } from "@/lib/dashboard/form-states";
import { getDb } from "@/lib/platform/db";
import { assertSameOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import { kickWebhookWorker } from "@/lib/webhooks";

const WEBHOOKS_PATH = "/dashboard/webhooks";

/** Sends one of the merchant's messages again now (same webhook-id); its page and the log then show the new attempt. */
export async function redeliverWebhookAction(_previous: RedeliverWebhookState, form: FormData): Promise<RedeliverWebhookState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const state = await redeliverFromForm(await getDb(), merchant.id, Object.fromEntries(form));
  if (state.outcome) revalidatePath(WEBHOOKS_PATH, "layout");
  return state;
}

/** Sends a signed test event to the URL in the form; it is logged with the other messages. */
export async function sendTestWebhookAction(_previous: SendTestWebhookState, form: FormData): Promise<SendTestWebhookState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const state = await sendTestFromForm(await getDb(), merchant.id, Object.fromEntries(form));
  if (state.outcome) revalidatePath(WEBHOOKS_PATH, "layout");
  return state;
}

/** Re-enables an endpoint the worker disabled, and has its held messages sent now. */
export async function enableEndpointAction(_previous: EnableEndpointState, form: FormData): Promise<EnableEndpointState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const state = await enableEndpointFromForm(await getDb(), merchant.id, Object.fromEntries(form));
  if (state.released !== undefined) {
    kickWebhookWorker();
    revalidatePath(WEBHOOKS_PATH, "layout");
  }
  return state;
}

const secretForm = z.object({ intent: z.enum(["reveal", "rotate"]) });

/**
 * The signing secret panel: "reveal" answers the secret (it is not in the page until asked for); "rotate" makes a new
 * one, and the previous one keeps signing beside it for a day.
 */
export async function webhookSecretAction(_previous: WebhookSecretState, form: FormData): Promise<WebhookSecretState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const parsed = secretForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "Choose to reveal or to rotate the secret." };
  const db = await getDb();
  if (parsed.data.intent === "reveal") return revealWebhookSecret(db, merchant.id);
  const state = await rotateWebhookSecretNow(db, merchant.id);
  revalidatePath(WEBHOOKS_PATH);
  return state;
}

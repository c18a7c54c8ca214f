import { and, eq, ne, sql } from "drizzle-orm";
import { config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { webhookDeliveries, webhookEndpoints } from "@/lib/platform/db/schema";
import type { NetworkMode } from "./address";
import { failureText, insertAttempt, isSuccess, sendAttempt, type WebhookAttempt } from "./attempt";
import { getWebhookDelivery, type WebhookDeliveryWithAttempts } from "./deliveries";
import { newMessageId } from "./ids";
import { signingSecretsOf } from "./secrets";
import { parseWebhookUrl, type Resolver } from "./url-guard";
import { DomainError } from "@/lib/platform/errors";

export type ManualSendOptions = {
  mode?: NetworkMode;
  now?: Date;
  timeoutMs?: number;
  resolve?: Resolver;
};

export type ManualSendResult = {
  /** The attempt just made: status code (or error), response excerpt, duration. */
  attempt: WebhookAttempt;
  delivery: WebhookDeliveryWithAttempts;
};

/**
 * Sends one of the merchant's messages again, now, as the next attempt with the same `webhook-id` and payload, signed
 * with the secrets of today, and waits for the answer. A 2xx marks a pending or failed message delivered (a pending
 * one then leaves the retry schedule); a failure changes nothing but the log: a pending message keeps its schedule,
 * a failed one stays failed, and the automatic retries left are as many as before. It is sent even when its endpoint is disabled, and never re-enables it or touches its
 * failure count: re-enabling is the merchant's own, separate step (`enableWebhookEndpoint`).
 */
export async function redeliverWebhook(
  db: Db,
  merchantId: string,
  deliveryId: string,
  opts: ManualSendOptions = {},
): Promise<ManualSendResult & { endpointDisabled: boolean }> {
  const now = opts.now ?? new Date();
  // The attempt number is taken first, atomically: a worker sending the same message meanwhile takes another.
  // Counted as manual too, so that it does not use up one of the automatic retries.
  const [message] = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, manualAttempts: sql`${webhookDeliveries.manualAttempts} + 1` })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.merchantId, merchantId)))
    .returning({ id: webhookDeliveries.id, url: webhookDeliveries.url, payload: webhookDeliveries.payload, attempt: webhookDeliveries.attempts });
  if (!message) throw new DomainError("not_found", `No webhook message ${deliveryId}`);
  const secrets = await signingSecretsOf(db, merchantId, now);
  const attempt = await sendAttempt({ ...message, secrets }, message.attempt, now, {
    mode: opts.mode ?? config().networkMode,
    timeoutMs: opts.timeoutMs,
    resolve: opts.resolve,
  });

  await db.transaction(async (tx) => {
    await insertAttempt(tx, message.id, attempt);
    await tx
      .update(webhookDeliveries)
      .set(
        isSuccess(attempt.statusCode)
          ? { status: "delivered", deliveredAt: now, nextAttemptAt: null, lastStatusCode: attempt.statusCode, lastError: null }
          : { lastStatusCode: attempt.statusCode, lastError: failureText(attempt) },
      )
      // A message already delivered stays as it was: its first delivery is the one on record.
      .where(and(eq(webhookDeliveries.id, message.id), ne(webhookDeliveries.status, "delivered")));
  });
  const [endpoint] = await db
    .select({ disabledAt: webhookEndpoints.disabledAt })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.url, message.url)));
  return { attempt, delivery: await mustGet(db, merchantId, message.id), endpointDisabled: Boolean(endpoint?.disabledAt) };
}

/**
 * Sends a `test` message to any URL the guard accepts, signed like the others, and waits for the answer. It is logged
 * with the others (event type `test`, one attempt, delivered or failed) and never retried; it does not count for or
 * against any endpoint. The payload is the caller's (say, a sample invoice), or a small object naming the event.
 * A URL refused by its text alone (scheme, credentials, a non-public IP) throws `invalid_webhook_url`; one whose host
 * resolves to a refused address is logged as a blocked attempt.
 */
export async function sendTestWebhook(
  db: Db,
  merchantId: string,
  input: { url: string; payload?: unknown },
  opts: ManualSendOptions = {},
): Promise<ManualSendResult> {
  const now = opts.now ?? new Date();
  const mode = opts.mode ?? config().networkMode;
  const parsed = parseWebhookUrl(input.url, mode);
  if (!parsed.ok) throw new DomainError("invalid_webhook_url", `The URL ${parsed.reason}`);
  const url = parsed.url.href;
  const secrets = await signingSecretsOf(db, merchantId, now);
  const id = newMessageId();
  const payload = input.payload ?? {
    type: "test",
    message: "A test event from x402 Storefront: your endpoint received it.",
    id,
    created_time: now.toISOString(),
  };
  await db.insert(webhookDeliveries).values({
    id,
    merchantId,
    invoiceId: null,
    url,
    eventType: "test",
    payload,
    eventAt: now,
    attempts: 1,
    nextAttemptAt: null,
    createdAt: now,
  });
  const attempt = await sendAttempt({ id, url, payload, secrets }, 1, now, { mode, timeoutMs: opts.timeoutMs, resolve: opts.resolve });
  const ok = isSuccess(attempt.statusCode);
  await db.transaction(async (tx) => {
    await insertAttempt(tx, id, attempt);
    await tx
      .update(webhookDeliveries)
      .set({ status: ok ? "delivered" : "failed", deliveredAt: ok ? now : null, lastStatusCode: attempt.statusCode, lastError: failureText(attempt) })
      .where(eq(webhookDeliveries.id, id));
  });
  return { attempt, delivery: await mustGet(db, merchantId, id) };
}

async function mustGet(db: Db, merchantId: string, id: string): Promise<WebhookDeliveryWithAttempts> {
  const delivery = await getWebhookDelivery(db, merchantId, id);
  if (!delivery) throw new DomainError("not_found", `No webhook message ${id}`);
  return delivery;
}

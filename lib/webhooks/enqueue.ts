import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/platform/db";
import { webhookDeliveries, webhookEndpoints } from "@/lib/platform/db/schema";
import type { WebhookEventType } from "./events";
import { newMessageId } from "./ids";

export type { DbOrTx };

export type WebhookEvent = {
  merchantId: string;
  /** The invoice the event is about (null for a test message). */
  invoiceId: string | null;
  /** Where to send it: the invoice's `webhook_url`, checked with `checkWebhookUrl` when the invoice was created. */
  url: string;
  eventType: WebhookEventType;
  /** The body, sent as its JSON: for invoices, the invoice object as the API shows it. */
  payload: unknown;
  /** When it happened (the invoice became final). */
  eventAt: Date;
};

/**
 * Writes a webhook message to the outbox, in the caller's transaction: the message exists if and only if the event
 * does. It is due at once, unless its endpoint is disabled: then it is held (`next_attempt_at` null) until the
 * merchant re-enables the endpoint. The endpoint is recorded on first use. After the transaction commits, call
 * `kickWebhookWorker()` so the message goes out without waiting for the worker's next pass.
 */
export async function enqueueWebhook(tx: DbOrTx, event: WebhookEvent, now = new Date()): Promise<{ id: string; held: boolean }> {
  const payload = jsonValue(event.payload);
  await tx.insert(webhookEndpoints).values({ merchantId: event.merchantId, url: event.url, updatedAt: now }).onConflictDoNothing();
  const [endpoint] = await tx
    .select({ disabledAt: webhookEndpoints.disabledAt })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, event.merchantId), eq(webhookEndpoints.url, event.url)));
  const held = Boolean(endpoint?.disabledAt);
  const id = newMessageId();
  await tx.insert(webhookDeliveries).values({
    id,
    merchantId: event.merchantId,
    invoiceId: event.invoiceId,
    url: event.url,
    eventType: event.eventType,
    payload,
    eventAt: event.eventAt,
    nextAttemptAt: held ? null : now,
    // Set here, not by the database: the delivery log pages on (created_at, id) with millisecond cursors.
    createdAt: now,
  });
  return { id, held };
}

/** The payload as plain JSON, or a clear error now (a bigint or a cycle) rather than a message that can never be sent. */
function jsonValue(payload: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (err) {
    throw new Error(`webhook payload is not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (text === undefined) throw new Error("webhook payload is not JSON (undefined or a function)");
  return JSON.parse(text) as unknown;
}

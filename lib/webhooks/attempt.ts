import type { DbOrTx } from "./enqueue";
import { webhookAttempts } from "@/lib/platform/db/schema";
import { postWebhook, type SendOptions } from "./send";

/** One attempt as the delivery log shows it. */
export type WebhookAttempt = {
  attempt: number;
  url: string;
  sentAt: Date;
  durationMs: number;
  /** Null when no HTTP answer came (timeout, refused connection, blocked address). */
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
};

export const isSuccess = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * Sends attempt number `attempt` of a message: its payload serialized once, here, and signed as sent. `sentAt` is the
 * caller's clock (the log's "send time"); the signature's timestamp is always the real time.
 */
export async function sendAttempt(
  message: { id: string; url: string; payload: unknown; secrets: string[] },
  attempt: number,
  sentAt: Date,
  opts: SendOptions,
): Promise<WebhookAttempt & { retryAfterMs: number | null }> {
  const result = await postWebhook({ url: message.url, id: message.id, body: JSON.stringify(message.payload), secrets: message.secrets }, opts);
  return { attempt, url: message.url, sentAt, ...result };
}

export async function insertAttempt(tx: DbOrTx, deliveryId: string, a: WebhookAttempt): Promise<void> {
  await tx.insert(webhookAttempts).values({
    deliveryId,
    attempt: a.attempt,
    url: a.url,
    sentAt: a.sentAt,
    durationMs: a.durationMs,
    statusCode: a.statusCode,
    responseExcerpt: a.responseExcerpt,
    error: a.error,
  });
}

/** The delivery's `last_error` after a failed attempt: the error, or the status it answered. */
export function failureText(a: WebhookAttempt): string | null {
  if (isSuccess(a.statusCode)) return null;
  return a.error ?? (a.statusCode !== null ? `HTTP ${a.statusCode}` : "no answer");
}

import { and, eq } from "drizzle-orm";
import { logFor } from "@/lib/platform/log";
import { metrics } from "@/lib/platform/metrics";
import { config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { webhookDeliveries } from "@/lib/platform/db/schema";
import type { NetworkMode } from "./address";
import { failureText, insertAttempt, isSuccess, sendAttempt } from "./attempt";
import { maxAttempts, nextRetryDelayMs } from "./backoff";
import { claimDueDeliveries, DEFAULT_LOCK_MS, type ClaimedDelivery } from "./claim";
import { recordEndpointEvent, type EndpointEvent } from "./endpoints";
import type { Resolver } from "./url-guard";

/** What the worker did with one message: accepted, to be retried, given up, or refused for good by a 410. */
export type DeliveryOutcome = "delivered" | "retry" | "failed" | "gone";

export type DrainWebhooksOptions = {
  /** Network mode (what the URL guard allows); the configured one by default. */
  mode?: NetworkMode;
  /** WEBHOOK_RETRY_BASE_SECONDS; the configured one by default. */
  retryBaseSeconds?: number;
  /** A fixed clock for the whole drain (tests move time with it); the real time at each round otherwise. */
  now?: Date;
  /** Messages claimed per round; a round's messages are sent in parallel. */
  limit?: number;
  lockMs?: number;
  /** The receiver's time to answer; WEBHOOK_TIMEOUT_MS by default. */
  timeoutMs?: number;
  resolve?: Resolver;
  /** The jitter's random source, in [0, 1). */
  random?: () => number;
  /** Aborted when the server stops: the drain ends after the round in flight (each attempt has its timeout). */
  signal?: AbortSignal;
};

export type DrainWebhooksResult = { claimed: number } & Record<DeliveryOutcome, number>;

/**
 * Sends due messages, round after round, until none is due. A message that fails waits for its backoff, so a drain
 * always ends. A message whose attempt could not be recorded (database error) stays claimed until its lock lapses and
 * is sent again then; the drain finishes the others and throws the first such error at the end.
 */
export async function drainWebhooks(db: Db, opts: DrainWebhooksOptions = {}): Promise<DrainWebhooksResult> {
  const settings = { ...opts, mode: opts.mode ?? config().networkMode, retryBaseSeconds: opts.retryBaseSeconds ?? config().webhookRetryBaseSeconds };
  const result: DrainWebhooksResult = { claimed: 0, delivered: 0, retry: 0, failed: 0, gone: 0 };
  const errors: unknown[] = [];
  while (!opts.signal?.aborted) {
    const batch = await claimDueDeliveries(db, { limit: opts.limit ?? 10, lockMs: opts.lockMs ?? DEFAULT_LOCK_MS, now: opts.now ?? new Date() });
    if (batch.length === 0) break;
    result.claimed += batch.length;
    const outcomes = await Promise.allSettled(batch.map((d) => deliverClaimed(db, d, settings)));
    for (const o of outcomes) {
      if (o.status === "fulfilled") result[o.value]++;
      else errors.push(o.reason);
    }
  }
  if (errors.length > 0)
    throw new Error(`${errors.length} webhook attempt(s) could not be recorded; they are sent again when their claim lapses`, { cause: errors[0] });
  return result;
}

/**
 * Makes the claimed attempt and records it: the attempt row, the endpoint's state, and the message's outcome: 2xx
 * delivered; 410 failed for good (and the endpoint disabled); anything else (no answer, 3xx, 4xx, 5xx, a blocked
 * address) retried after its backoff until the schedule is spent, then failed. The message's update only applies
 * while this claim still holds it and it is still pending (a manual redelivery may have delivered it meanwhile).
 */
export async function deliverClaimed(
  db: Db,
  claimed: ClaimedDelivery,
  opts: Omit<DrainWebhooksOptions, "mode" | "retryBaseSeconds"> & { mode: NetworkMode; retryBaseSeconds: number },
): Promise<DeliveryOutcome> {
  const sentAt = opts.now ?? new Date();
  const attempt = await sendAttempt(claimed, claimed.attempt, sentAt, opts);
  const now = opts.now ?? new Date();

  let outcome: DeliveryOutcome;
  let nextAttemptAt: Date | null = null;
  if (isSuccess(attempt.statusCode)) outcome = "delivered";
  else if (attempt.statusCode === 410) outcome = "gone";
  else {
    const delay = nextRetryDelayMs(claimed.scheduled, opts.retryBaseSeconds, { random: opts.random, retryAfterMs: attempt.retryAfterMs });
    outcome = delay === null ? "failed" : "retry";
    if (delay !== null) nextAttemptAt = new Date(now.getTime() + delay);
  }
  const endpointEvent: EndpointEvent = outcome === "delivered" ? "accepted" : outcome === "gone" ? "gone" : outcome === "failed" ? "gave_up" : "failed";

  await db.transaction(async (tx) => {
    await insertAttempt(tx, claimed.id, attempt);
    await recordEndpointEvent(tx, claimed, endpointEvent, { now, attemptsPerMessage: maxAttempts(opts.retryBaseSeconds) });
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome === "delivered" ? "delivered" : outcome === "retry" ? "pending" : "failed",
        nextAttemptAt,
        lockedUntil: null,
        lastStatusCode: attempt.statusCode,
        lastError: failureText(attempt),
        ...(outcome === "delivered" ? { deliveredAt: now } : {}),
      })
      .where(and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.lockedUntil, claimed.lockedUntil)));
  });
  metrics().webhookAttempts.inc({ outcome });
  // The endpoint by its host only: a receiver's URL may carry a token of its own.
  const about = logFor({ merchant_id: claimed.merchantId, delivery_id: claimed.id, attempt: claimed.attempt });
  const answer = { host: hostOf(claimed.url), status_code: attempt.statusCode ?? undefined, reason: attempt.error ?? undefined };
  if (outcome === "delivered") about.debug(answer, "webhook delivered");
  else if (outcome === "retry") about.warn({ ...answer, retry_at: nextAttemptAt?.toISOString() }, "webhook not accepted; retrying");
  else about.error(answer, outcome === "gone" ? "webhook endpoint answered 410: disabled" : "webhook not accepted after every retry: given up");
  return outcome;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

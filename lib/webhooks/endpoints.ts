import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { webhookDeliveries, webhookEndpoints } from "@/lib/platform/db/schema";
import type { DbOrTx } from "./enqueue";
import { DomainError } from "@/lib/platform/errors";

/** A URL the merchant's invoices send to, and whether it still gets messages. */
export type WebhookEndpoint = {
  url: string;
  /** Worker attempts in a row that failed (0 after any accepted one). */
  consecutiveFailures: number;
  /** Set when it answered 410 or kept failing; its messages are held until it is re-enabled. */
  disabledAt: Date | null;
  disabledReason: string | null;
  updatedAt: Date;
  /** Messages still to send to it (held ones included). */
  pendingDeliveries: number;
};

/** What an automatic attempt did to its endpoint. */
export type EndpointEvent = "accepted" | "failed" | "gone" | "gave_up";

/**
 * Keeps an endpoint's record after an attempt of the worker (not a manual redelivery or a test): an accepted message
 * resets its failure count; a 410 disables it at once; a message given up disables it when nothing was accepted in as
 * many attempts as one message gets (`attemptsPerMessage`): about a day of failures in a row. An endpoint that is
 * sometimes up keeps its messages flowing even if one of them is given up. Disabling holds its pending messages.
 * Runs in the attempt's transaction, before the message's own update (endpoint first, then messages, everywhere).
 */
export async function recordEndpointEvent(
  tx: DbOrTx,
  endpoint: { merchantId: string; url: string },
  event: EndpointEvent,
  opts: { now: Date; attemptsPerMessage: number },
): Promise<void> {
  const { now } = opts;
  const accepted = event === "accepted";
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({ merchantId: endpoint.merchantId, url: endpoint.url, consecutiveFailures: accepted ? 0 : 1, updatedAt: now })
    .onConflictDoUpdate({
      target: [webhookEndpoints.merchantId, webhookEndpoints.url],
      set: { consecutiveFailures: accepted ? 0 : sql`${webhookEndpoints.consecutiveFailures} + 1`, updatedAt: now },
    })
    .returning({ consecutiveFailures: webhookEndpoints.consecutiveFailures });
  const failures = row?.consecutiveFailures ?? 0;
  const reason =
    event === "gone"
      ? "the endpoint answered 410 Gone"
      : event === "gave_up" && failures >= opts.attemptsPerMessage
        ? `no message accepted in ${failures} attempts in a row; a message was given up after about a day of retries`
        : undefined;
  if (reason) await disableEndpoint(tx, endpoint, reason, now);
}

async function disableEndpoint(tx: DbOrTx, endpoint: { merchantId: string; url: string }, reason: string, now: Date): Promise<void> {
  const disabled = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: now, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookEndpoints.merchantId, endpoint.merchantId), eq(webhookEndpoints.url, endpoint.url), isNull(webhookEndpoints.disabledAt)))
    .returning({ url: webhookEndpoints.url });
  if (disabled.length === 0) return;
  // Held: not due until re-enabled. Messages another worker holds right now are skipped (no waiting on them);
  // the claim never takes a disabled endpoint's messages anyway.
  await tx.execute(sql`
    UPDATE ${webhookDeliveries} SET next_attempt_at = NULL
    WHERE id IN (
      SELECT id FROM ${webhookDeliveries}
      WHERE merchant_id = ${endpoint.merchantId} AND url = ${endpoint.url} AND status = 'pending'
        AND (locked_until IS NULL OR locked_until < ${now.toISOString()})
      FOR UPDATE SKIP LOCKED
    )`);
}

/** The merchant's endpoints, disabled ones first, then by URL. */
export async function listWebhookEndpoints(db: Db, merchantId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select({
      url: webhookEndpoints.url,
      consecutiveFailures: webhookEndpoints.consecutiveFailures,
      disabledAt: webhookEndpoints.disabledAt,
      disabledReason: webhookEndpoints.disabledReason,
      updatedAt: webhookEndpoints.updatedAt,
      pendingDeliveries: sql<number>`(
        SELECT count(*)::int FROM ${webhookDeliveries}
        WHERE ${webhookDeliveries.merchantId} = ${webhookEndpoints.merchantId}
          AND ${webhookDeliveries.url} = ${webhookEndpoints.url} AND ${webhookDeliveries.status} = 'pending'
      )`,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId))
    .orderBy(sql`${webhookEndpoints.disabledAt} IS NULL`, asc(webhookEndpoints.url));
  return rows;
}

/**
 * Re-enables an endpoint (only the merchant does this: nothing re-enables one by itself), resets its failure count,
 * and releases its pending messages: all due now (held ones and ones waiting for a retry alike), each continuing its
 * own attempt count. Returns how many were released; call `kickWebhookWorker()` after.
 */
export async function enableWebhookEndpoint(db: Db, merchantId: string, url: string, opts: { now?: Date } = {}): Promise<{ released: number }> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ disabledAt: null, disabledReason: null, consecutiveFailures: 0, updatedAt: now })
      .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.url, url)))
      .returning({ url: webhookEndpoints.url });
    if (!endpoint) throw new DomainError("not_found", `No webhook endpoint ${url}`);
    const released = await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now })
      .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.url, url), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    return { released: released.length };
  });
}

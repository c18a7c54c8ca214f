import { and, asc, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { webhookAttempts, webhookDeliveries } from "@/lib/platform/db/schema";
import type { WebhookAttempt } from "./attempt";
import { isMessageId } from "./ids";
import { DomainError } from "@/lib/platform/errors";

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** A message as the delivery log lists it. */
export type WebhookDelivery = {
  /** The message id, sent as `webhook-id` on every attempt. */
  id: string;
  invoiceId: string | null;
  url: string;
  eventType: string;
  payload: unknown;
  status: DeliveryStatus;
  /** When the event happened; compare with the attempts' `sentAt`. */
  eventAt: Date;
  createdAt: Date;
  attempts: number;
  /** When the worker tries next; null once delivered or failed, and while held (pending for a disabled endpoint). */
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  /** The latest attempt, with its response excerpt; null before the first. */
  lastAttempt: WebhookAttempt | null;
};

export type WebhookDeliveryWithAttempts = Omit<WebhookDelivery, "lastAttempt"> & { attemptLog: WebhookAttempt[] };

export type ListDeliveriesQuery = {
  status?: DeliveryStatus;
  invoiceId?: string;
  url?: string;
  eventType?: string;
  /** 1 to 100; 20 by default. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
};

export const MAX_DELIVERIES_PAGE = 100;

const deliveryColumns = {
  id: webhookDeliveries.id,
  invoiceId: webhookDeliveries.invoiceId,
  url: webhookDeliveries.url,
  eventType: webhookDeliveries.eventType,
  payload: webhookDeliveries.payload,
  status: webhookDeliveries.status,
  eventAt: webhookDeliveries.eventAt,
  createdAt: webhookDeliveries.createdAt,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastError: webhookDeliveries.lastError,
  deliveredAt: webhookDeliveries.deliveredAt,
};

const attemptColumns = {
  attempt: webhookAttempts.attempt,
  url: webhookAttempts.url,
  sentAt: webhookAttempts.sentAt,
  durationMs: webhookAttempts.durationMs,
  statusCode: webhookAttempts.statusCode,
  responseExcerpt: webhookAttempts.responseExcerpt,
  error: webhookAttempts.error,
};

/**
 * The merchant's store-wide delivery log, newest message first, a page at a time: each message with its latest
 * attempt. Filters by status, invoice, URL and event type. `nextCursor` is null on the last page.
 */
export async function listWebhookDeliveries(
  db: Db,
  merchantId: string,
  query: ListDeliveriesQuery = {},
): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? 20), 1), MAX_DELIVERIES_PAGE);
  const conditions: (SQL | undefined)[] = [eq(webhookDeliveries.merchantId, merchantId)];
  if (query.status) conditions.push(eq(webhookDeliveries.status, query.status));
  if (query.invoiceId) conditions.push(eq(webhookDeliveries.invoiceId, query.invoiceId));
  if (query.url) conditions.push(eq(webhookDeliveries.url, query.url));
  if (query.eventType) conditions.push(eq(webhookDeliveries.eventType, query.eventType));
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    conditions.push(
      or(lt(webhookDeliveries.createdAt, after.createdAt), and(eq(webhookDeliveries.createdAt, after.createdAt), lt(webhookDeliveries.id, after.id))),
    );
  }
  const rows = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = await lastAttempts(
    db,
    page.map((d) => d.id),
  );
  const deliveries = page.map((d) => ({ ...d, lastAttempt: last.get(d.id) ?? null }));
  const tail = page[page.length - 1];
  return { deliveries, nextCursor: rows.length > limit && tail ? encodeCursor(tail) : null };
}

/** One of the merchant's messages with every attempt, oldest first; null when it has no such message. */
export async function getWebhookDelivery(db: Db, merchantId: string, id: string): Promise<WebhookDeliveryWithAttempts | null> {
  const [delivery] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.merchantId, merchantId)));
  if (!delivery) return null;
  const attemptLog = await db
    .select(attemptColumns)
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, id))
    .orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.id));
  return { ...delivery, attemptLog };
}

async function lastAttempts(db: Db, ids: string[]): Promise<Map<string, WebhookAttempt>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([webhookAttempts.deliveryId], { deliveryId: webhookAttempts.deliveryId, ...attemptColumns })
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, ids))
    .orderBy(webhookAttempts.deliveryId, desc(webhookAttempts.attempt), desc(webhookAttempts.id));
  return new Map(rows.map(({ deliveryId, ...a }) => [deliveryId, a]));
}

function encodeCursor(d: { createdAt: Date; id: string }): string {
  return Buffer.from(`${d.createdAt.toISOString()}|${d.id}`).toString("base64url");
}

/** A cursor this module made; anything else is refused (`invalid_cursor`), so a route can answer 400. */
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString().split("|");
  // Only what encodeCursor writes: an ISO time (a year the database takes) and a message id.
  const createdAt = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at ?? "") ? new Date(at!) : new Date(Number.NaN);
  if (!id || !isMessageId(id) || Number.isNaN(createdAt.getTime())) throw new DomainError("invalid_cursor", "Not a cursor of this delivery log");
  return { createdAt, id };
}

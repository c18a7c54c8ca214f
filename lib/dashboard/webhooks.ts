import { DomainError } from "@/lib/platform/errors";
import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { searchParamValues } from "@/lib/platform/http/search-params";
import {
  enableWebhookEndpoint,
  getWebhookSecrets,
  INVOICE_EVENT_TYPES,
  listWebhookDeliveries,
  MAX_WEBHOOK_URL_LENGTH,
  redeliverWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
  type ManualSendOptions,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookSecrets,
} from "@/lib/webhooks";
import type { EnableEndpointState, RedeliverWebhookState, SendTestWebhookState, WebhookAttemptOutcome, WebhookSecretState } from "./form-states";

/** The dashboard's Webhooks section: the delivery log's query, and what its server actions do (each action is a thin shell over these). */

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const WEBHOOK_EVENT_TYPES = [...INVOICE_EVENT_TYPES, "test"] as const;
export const WEBHOOK_LOG_PAGE_SIZE = 25;

/**
 * The delivery log's query, as the page's URL carries it: filters by status, event type, exact target URL and invoice
 * id, and the cursor of the page (from the previous page's "Older" link). A wrong value loses its filter (the page
 * says so) rather than failing.
 */
export const webhookLogQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().catch(undefined),
  event: z.enum(WEBHOOK_EVENT_TYPES).optional().catch(undefined),
  url: z.string().trim().max(MAX_WEBHOOK_URL_LENGTH).optional().catch(undefined),
  invoice: z
    .string()
    .trim()
    .max(64)
    .regex(/^[\w-]+$/)
    .optional()
    .catch(undefined),
  cursor: z
    .string()
    .max(200)
    .regex(/^[\w-]+$/)
    .optional()
    .catch(undefined),
});
export type WebhookLogQuery = z.infer<typeof webhookLogQuery>;

const QUERY_KEYS = ["status", "event", "url", "invoice", "cursor"] as const;

/** Reads the query from a page's search params: repeated parameters take their first value, empty ones are absent. */
export function parseWebhookLogQuery(params: Record<string, string | string[] | undefined>): { query: WebhookLogQuery; ignored: string[] } {
  const raw = searchParamValues(params);
  const query = webhookLogQuery.parse(raw);
  const ignored = QUERY_KEYS.filter((k) => raw[k] !== undefined && query[k] === undefined);
  return { query, ignored };
}

/** The URL query of a view of the log, its filters in a fixed order; absent ones left out. */
export function webhookLogParams(query: WebhookLogQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of QUERY_KEYS) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  return params;
}

/**
 * One page of the log. A cursor the log does not know (a hand-edited or truncated link) starts again from the newest
 * message, and says so (`cursorRefused`), instead of failing.
 */
export async function listWebhookLog(
  db: Db,
  merchantId: string,
  query: WebhookLogQuery,
  limit = WEBHOOK_LOG_PAGE_SIZE,
): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null; cursorRefused: boolean }> {
  const filters = { status: query.status, eventType: query.event, url: query.url, invoiceId: query.invoice, limit };
  try {
    return { ...(await listWebhookDeliveries(db, merchantId, { ...filters, cursor: query.cursor })), cursorRefused: false };
  } catch (err) {
    if (!(err instanceof DomainError && err.code === "invalid_cursor")) throw err;
    return { ...(await listWebhookDeliveries(db, merchantId, filters)), cursorRefused: true };
  }
}

/** The URL a test event is offered to by default: the endpoint most recently used that still gets messages, else any. */
export function defaultTestUrl(endpoints: WebhookEndpoint[]): string | undefined {
  const byRecent = [...endpoints].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return (byRecent.find((e) => !e.disabledAt) ?? byRecent[0])?.url;
}

const outcome = (a: WebhookAttempt): WebhookAttemptOutcome => ({
  attempt: a.attempt,
  ok: a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300,
  statusCode: a.statusCode,
  responseExcerpt: a.responseExcerpt,
  error: a.error,
  durationMs: a.durationMs,
});

const redeliverForm = z.object({ id: z.string().trim().min(1).max(64) });

/** "Redeliver": sends one of the merchant's messages again now, same `webhook-id`, and answers what came back. */
export async function redeliverFromForm(db: Db, merchantId: string, form: unknown, opts: ManualSendOptions = {}): Promise<RedeliverWebhookState> {
  const parsed = redeliverForm.safeParse(form);
  if (!parsed.success) return { error: "That is not a webhook message of yours." };
  try {
    const result = await redeliverWebhook(db, merchantId, parsed.data.id, opts);
    return { outcome: { ...outcome(result.attempt), endpointDisabled: result.endpointDisabled } };
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") return { error: "That is not a webhook message of yours." };
    throw err;
  }
}

const sendTestForm = z.object({
  url: z
    .string({ error: "Enter the URL to send the test event to." })
    .trim()
    .min(1, "Enter the URL to send the test event to.")
    .max(MAX_WEBHOOK_URL_LENGTH, `Keep the URL under ${MAX_WEBHOOK_URL_LENGTH} characters.`),
});

/**
 * "Send test event": a signed `test` message to the URL in the form, logged with the others. A URL the guard refuses
 * by its text comes back as the form's error, with the URL to correct; one that cannot be reached is an attempt like
 * any other (no status code, and why).
 */
export async function sendTestFromForm(db: Db, merchantId: string, form: unknown, opts: ManualSendOptions = {}): Promise<SendTestWebhookState> {
  const parsed = sendTestForm.safeParse(form);
  const fields = (form ?? {}) as Record<string, unknown>;
  const typed = typeof fields.url === "string" ? fields.url.slice(0, MAX_WEBHOOK_URL_LENGTH) : undefined;
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the URL.", url: typed };
  const { url } = parsed.data;
  try {
    const result = await sendTestWebhook(db, merchantId, { url }, opts);
    return { url, outcome: { ...outcome(result.attempt), deliveryId: result.delivery.id, url: result.attempt.url } };
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid_webhook_url") return { error: `${err.message}.`, url };
    throw err;
  }
}

const enableForm = z.object({ url: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH) });

/** "Re-enable": the endpoint gets messages again, and its held ones are released (call `kickWebhookWorker()` after). */
export async function enableEndpointFromForm(db: Db, merchantId: string, form: unknown, now = new Date()): Promise<EnableEndpointState> {
  const parsed = enableForm.safeParse(form);
  if (!parsed.success) return { error: "That is not a webhook endpoint of yours." };
  try {
    return await enableWebhookEndpoint(db, merchantId, parsed.data.url, { now });
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") return { error: "That is not a webhook endpoint of yours." };
    throw err;
  }
}

const secretState = (s: WebhookSecrets, rotated = false): WebhookSecretState => ({
  secret: s.secret,
  previous: s.previous ? { secret: s.previous.secret, until: s.previous.until.toISOString() } : null,
  ...(rotated ? { rotated } : {}),
});

/** "Reveal": the signing secret, and the previous one while it still signs. */
export async function revealWebhookSecret(db: Db, merchantId: string, now = new Date()): Promise<WebhookSecretState> {
  return secretState(await getWebhookSecrets(db, merchantId, now));
}

/** "Rotate": a new secret; the one it replaces keeps signing beside it for ROTATION_OVERLAP_MS. */
export async function rotateWebhookSecretNow(db: Db, merchantId: string, now = new Date()): Promise<WebhookSecretState> {
  return secretState(await rotateWebhookSecret(db, merchantId, { now }), true);
}

import { notFound, ok, nextPage, listDeliveriesQuery, readQuery } from "@/lib/api/merchant";
import type { MerchantContext } from "@/lib/api/merchant";
import { getWebhookDelivery, listWebhookDeliveries, redeliverWebhook, type WebhookAttempt, type WebhookDelivery } from "@/lib/webhooks";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function attemptJson(a: WebhookAttempt) {
  return {
    attempt: a.attempt,
    url: a.url,
    sent_time: a.sentAt.toISOString(),
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    response_excerpt: a.responseExcerpt,
    error: a.error,
  };
}

/** A webhook message as the API shows it: where it goes, the event's time apart from each attempt's send time. */
function deliveryJson(d: Omit<WebhookDelivery, "lastAttempt"> & { lastAttempt?: WebhookAttempt | null; attemptLog?: WebhookAttempt[] }) {
  return {
    id: d.id,
    invoice_id: d.invoiceId,
    url: d.url,
    event_type: d.eventType,
    status: d.status,
    event_time: d.eventAt.toISOString(),
    created_time: d.createdAt.toISOString(),
    attempts: d.attempts,
    next_attempt_time: iso(d.nextAttemptAt),
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    delivered_time: iso(d.deliveredAt),
    payload: d.payload,
    ...(d.lastAttempt !== undefined ? { last_attempt: d.lastAttempt ? attemptJson(d.lastAttempt) : null } : {}),
    ...(d.attemptLog ? { attempt_log: d.attemptLog.map(attemptJson) } : {}),
  };
}

/** `GET /webhooks/deliveries`: every webhook message of the merchant, newest first, with its latest attempt. */
export async function listDeliveriesHandler(req: Request, ctx: MerchantContext): Promise<Response> {
  const url = new URL(req.url);
  const q = readQuery(url, listDeliveriesQuery);
  const page = await listWebhookDeliveries(ctx.db, ctx.merchant.id, { status: q.status, invoiceId: q.invoice_id, limit: q.limit, cursor: q.cursor });
  const next = page.nextCursor ? nextPage(url, ctx.apiBase, { cursor: page.nextCursor }) : undefined;
  return ok(ctx.endpoint, page.deliveries.map(deliveryJson), { limit: q.limit, count: page.deliveries.length, ...(next ? { _next: next } : {}) });
}

/** `GET /webhooks/deliveries/{id}`: one message with every attempt. */
export async function getDeliveryHandler(_req: Request, ctx: MerchantContext): Promise<Response> {
  const id = ctx.params.id ?? "";
  const d = await getWebhookDelivery(ctx.db, ctx.merchant.id, id);
  if (!d) throw notFound(`Webhook message ${id}`);
  return ok(ctx.endpoint, deliveryJson(d), { id });
}

/** `POST /webhooks/deliveries/{id}/redeliver`: sends the message again now (same `webhook-id`) and answers the attempt. */
export async function redeliverHandler(_req: Request, ctx: MerchantContext): Promise<Response> {
  const id = ctx.params.id ?? "";
  const result = await redeliverWebhook(ctx.db, ctx.merchant.id, id);
  return ok(
    ctx.endpoint,
    { attempt: attemptJson(result.attempt), endpoint_disabled: result.endpointDisabled, delivery: deliveryJson(result.delivery) },
    { id },
  );
}

// The webhook outbox: events, signing, delivery and its log. What other features import from it.
export { INVOICE_EVENT_TYPES, invoiceEventType, type FinalInvoiceStatus, type InvoiceEventType, type WebhookEventType } from "./events";
export { enqueueWebhook, type DbOrTx, type WebhookEvent } from "./enqueue";
export { startWebhookWorker, kickWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from "./worker";
export { drainWebhooks, deliverClaimed, type DeliveryOutcome, type DrainWebhooksOptions, type DrainWebhooksResult } from "./drain";
export { claimDueDeliveries, DEFAULT_LOCK_MS, releaseDeliveryClaims, type ClaimedDelivery } from "./claim";
export { checkWebhookUrl, parseWebhookUrl, resolveWebhookTarget, MAX_WEBHOOK_URL_LENGTH, type Resolver } from "./url-guard";
export { addressRange, checkAddress, type NetworkMode } from "./address";
export { postWebhook, WEBHOOK_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES, WEBHOOK_USER_AGENT, type SendResult } from "./send";
export { signatureHeaders } from "./sign";
export { getWebhookSecrets, rotateWebhookSecret, ROTATION_OVERLAP_MS, type WebhookSecrets } from "./secrets";
export { retrySchedule, maxAttempts, nextRetryDelayMs, MAX_RETRY_DELAY_MS, RETRY_SPAN_MS } from "./backoff";
export {
  listWebhookDeliveries,
  getWebhookDelivery,
  MAX_DELIVERIES_PAGE,
  type DeliveryStatus,
  type ListDeliveriesQuery,
  type WebhookDelivery,
  type WebhookDeliveryWithAttempts,
} from "./deliveries";
export { listWebhookEndpoints, enableWebhookEndpoint, type WebhookEndpoint } from "./endpoints";
export { redeliverWebhook, sendTestWebhook, type ManualSendOptions, type ManualSendResult } from "./manual-send";
export { newMessageId, isMessageId } from "./ids";
export type { WebhookAttempt } from "./attempt";

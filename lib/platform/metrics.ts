import { sql } from "drizzle-orm";
import client from "prom-client";
import { getDb } from "@/lib/platform/db";
import { queryRows } from "@/lib/platform/db/client";

/**
 * The shop's Prometheus metrics (GET /api/metrics). Counts of the database (queue depths, invoices by status) are read
 * at each scrape, so they are the whole deployment's, whichever server answers; timings and counters of work done
 * are this process's. prom-client is loaded outside the bundles (next.config.mjs), so every route and the
 * background loops share one registry.
 */
const globalForMetrics = globalThis as typeof globalThis & { __storefrontMetrics?: ReturnType<typeof createMetrics> };

function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "storefront_" });
  const settlementSeconds = new client.Histogram({
    name: "storefront_settlement_seconds",
    help: "Time from a payment's verification to its settlement's outcome, by network and outcome",
    labelNames: ["network", "outcome"] as const,
    buckets: [0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60],
    registers: [registry],
  });
  const webhookAttempts = new client.Counter({
    name: "storefront_webhook_attempts_total",
    help: "Webhook delivery attempts made by this process, by outcome (delivered, retry, failed, gone)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const invoicesPaid = new client.Gauge({ name: "storefront_invoices_paid", help: "Invoices ever paid (whatever their status now)", registers: [registry] });
  const invoices = new client.Gauge({
    name: "storefront_invoices",
    help: "Invoices in the database, by status",
    labelNames: ["status"] as const,
    registers: [registry],
  });
  const queue = new client.Gauge({
    name: "storefront_queue_depth",
    help: "Work waiting in the database: orders to fulfil, webhook messages to send, settlements not decided, refunds due",
    labelNames: ["queue"] as const,
    registers: [registry],
  });
  const webhookFailures = new client.Gauge({
    name: "storefront_webhook_deliveries_failed",
    help: "Webhook messages that failed for good (all retries spent, or 410)",
    registers: [registry],
  });
  return { registry, settlementSeconds, webhookAttempts, invoicesPaid, invoices, queue, webhookFailures };
}

export function metrics() {
  globalForMetrics.__storefrontMetrics ??= createMetrics();
  return globalForMetrics.__storefrontMetrics;
}

/** Reads the database's counts into the gauges, then renders every metric in the Prometheus text format. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  const db = await getDb();
  const [byStatus, depth] = await Promise.all([
    queryRows<{ status: string; n: number }>(db, sql`SELECT status::text AS status, count(*)::int AS n FROM invoices GROUP BY status`),
    queryRows<{ orders: number; webhooks: number; webhooks_failed: number; settlements: number; refunds: number; paid: number }>(
      db,
      sql`SELECT
        (SELECT count(*)::int FROM invoices WHERE paid_at IS NOT NULL) AS paid,
        (SELECT count(*)::int FROM orders WHERE status IN ('created', 'processing') AND run_at IS NOT NULL) AS orders,
        (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'pending') AS webhooks,
        (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'failed') AS webhooks_failed,
        (SELECT count(*)::int FROM settlements WHERE status IN ('settling', 'pending')) AS settlements,
        (SELECT count(*)::int FROM orders WHERE status = 'failed' AND refund_tx IS NULL) AS refunds`,
    ),
  ]);
  m.invoices.reset();
  for (const row of byStatus) m.invoices.set({ status: row.status }, Number(row.n));
  const d = depth[0];
  if (d) {
    m.queue.set({ queue: "orders" }, Number(d.orders));
    m.queue.set({ queue: "webhooks" }, Number(d.webhooks));
    m.queue.set({ queue: "settlements" }, Number(d.settlements));
    m.queue.set({ queue: "refunds" }, Number(d.refunds));
    m.webhookFailures.set(Number(d.webhooks_failed));
    m.invoicesPaid.set(Number(d.paid));
  }
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}

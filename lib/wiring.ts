import type { Db } from "@/lib/db";
import { on } from "@/lib/events";

/**
 * Who listens to the domain's events, wired once per process: at the server's start (lib/server/start.ts), in the
 * operator's CLI and in tests (vitest.setup.ts). Importing this module wires them. Each listener loads its module when
 * its event first comes, so that wiring costs a process nothing until then.
 *
 * - invoice.final: a merchant invoice with a webhook URL writes its webhook message to the outbox (then the worker is
 *   kicked).
 * - order.failed: a balance-paid order gets its price back on the merchant's balance.
 */
export function wireListeners(): void {
  on("invoice.final", "merchant webhook", async (tx, e) => {
    const [{ announceFinalInvoice }, { kickWebhookWorker }] = await Promise.all([import("@/lib/merchant-invoices/final"), import("@/lib/webhooks/worker")]);
    return (await announceFinalInvoice(tx, e.invoiceId, e.now)) ? { afterCommit: kickWebhookWorker } : undefined;
  });
  on("order.failed", "balance refund", async (tx, e) => {
    const { refundOrderToBalance } = await import("@/lib/merchants/refund-order");
    await refundOrderToBalance(tx as Db, e.orderId, e.now);
  });
}

wireListeners();

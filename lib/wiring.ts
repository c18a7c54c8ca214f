import { on } from "@/lib/events";
import { announceFinalInvoice } from "@/lib/merchant-invoices/final";
import { refundOrderToBalance } from "@/lib/merchants/refund-order";
import { kickWebhookWorker } from "@/lib/webhooks";
import type { Db } from "@/lib/db";

/**
 * Who listens to the domain's events, wired once per process: at the server's start (lib/server/start.ts), in the
 * operator's CLI and in tests (vitest.setup.ts). Importing this module wires them.
 *
 * - invoice.final: a merchant invoice with a webhook URL writes its webhook message to the outbox (then the worker is
 *   kicked).
 * - order.failed: a balance-paid order gets its price back on the merchant's balance.
 */
export function wireListeners(): void {
  on("invoice.final", "merchant webhook", async (tx, e) =>
    (await announceFinalInvoice(tx, e.invoiceId, e.now)) ? { afterCommit: kickWebhookWorker } : undefined,
  );
  on("order.failed", "balance refund", async (tx, e) => void (await refundOrderToBalance(tx as Db, e.orderId, e.now)));
}

wireListeners();

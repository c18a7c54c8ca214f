import type { Db } from "@/lib/platform/db";
import { on, runAfterCommit } from "@/lib/platform/events";

/**
 * Who listens to the domain's events, wired once per process: at the server's start (instrumentation.ts), in the
 * operator's CLI and in tests (vitest.setup.ts). Importing this module wires them. Each listener loads its module when
 * its event first comes, so that wiring costs a process nothing until then.
 *
 * - invoice.orders-ended: the invoice's status, delivery status and error code are written from its orders (its
 *   roll-up); when that completes it, invoice.final follows.
 * - invoice.final: a merchant invoice with a webhook URL writes its webhook message to the outbox (then the worker is
 *   kicked).
 * - order.failed: a balance-paid order gets its price back on the merchant's balance; an order whose invoice a gift
 *   card paid part of gives the card its share back first.
 *
 * Nothing else is set up here: other work that a lower layer runs without importing it is passed to it by whoever
 * starts it (ARCHITECTURE.md): the seeding to the database's opening by the server's start and `npm run db:migrate`,
 * the rounds after the response on Vercel to the poll loops' registry by the server's start, and the upstream
 * supplier's provider to the fulfilment by the server's worker and round (lib/server).
 */
export function wireListeners(): void {
  on("invoice.final", "merchant webhook", async (tx, e) => {
    const [{ announceFinalInvoice }, { kickWebhookWorker }] = await Promise.all([import("@/lib/checkout"), import("@/lib/webhooks")]);
    return (await announceFinalInvoice(tx, e.invoiceId, e.now)) ? { afterCommit: kickWebhookWorker } : undefined;
  });
  on("invoice.orders-ended", "invoice roll-up", async (tx, e) => {
    const { rollUpInvoice } = await import("@/lib/checkout");
    const { after } = await rollUpInvoice(tx, e.invoiceId, e.now);
    return after.length > 0 ? { afterCommit: () => runAfterCommit(after) } : undefined;
  });
  on("order.failed", "balance refund", async (tx, e) => {
    const { refundOrderToBalance } = await import("@/lib/merchants");
    await refundOrderToBalance(tx as Db, e.orderId, e.now);
  });
  on("order.failed", "gift card refund", async (tx, e) => {
    // A wallet's invoice paid partly by a gift card: the card gets its share back first; the USDC refund pays the rest.
    // (A merchant's order did this in its balance refund above; a second call finds it done.)
    const { refundOrderToCards } = await import("@/lib/gift-cards");
    await refundOrderToCards(tx as Db, e.orderId);
  });
}

wireListeners();

import { and, eq, gt, inArray, isNotNull, isNull } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/lib/platform/db";
import { orders, upstreamPurchases } from "@/lib/platform/db/schema";
import { kickWorker } from "@/lib/fulfilment";
import { log, logFor } from "@/lib/platform/log";
import { upstreamInvoice } from "./client";

/**
 * What became of an upstream webhook: refused (its signature does not verify), taken (and how many orders it made
 * due), or not yet (`early`): it names an invoice no purchase knows while some purchase waits for the answer that
 * would name it (the answer is on its way, or was lost in a crash): those orders are due now, and the upstream is to
 * send it again.
 */
export type WebhookReceipt = { accepted: false; reason: string } | { accepted: true; due: number } | { accepted: true; due: number; early: true };

/** A purchase asked this recently whose answer is not recorded may be the one an unknown invoice answers. */
const EARLY_WEBHOOK_WINDOW_MS = 10 * 60_000;

/**
 * An upstream's final invoice, POSTed to `/api/upstream/webhook` and signed with the upstream account's webhook secret
 * (Standard Webhooks: id, timestamp within five minutes, HMAC): a faster path than polling. It is not believed for
 * what it says: it only makes the orders bought with that invoice due now, and their provider reads the invoice and
 * its orders from the upstream as it would have at the next poll. A message whose signature does not verify changes
 * nothing. A duplicate (retries happen) makes them due again, which is harmless.
 */
export async function receiveUpstreamWebhook(db: Db, secret: string, body: string, headers: Headers): Promise<WebhookReceipt> {
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(body, {
      "webhook-id": headers.get("webhook-id") ?? "",
      "webhook-timestamp": headers.get("webhook-timestamp") ?? "",
      "webhook-signature": headers.get("webhook-signature") ?? "",
    });
  } catch (err) {
    log.warn({ reason: err instanceof Error ? err.message : String(err) }, "an upstream webhook was refused: its signature does not verify");
    return { accepted: false, reason: "signature" };
  }
  const invoice = upstreamInvoice.safeParse(payload);
  if (!invoice.success) return { accepted: true, due: 0 };
  const about = logFor({ upstream_invoice_id: invoice.data.id, upstream_status: invoice.data.status });
  const bought = await db
    .select({ orderId: upstreamPurchases.orderId })
    .from(upstreamPurchases)
    .where(eq(upstreamPurchases.upstreamInvoiceId, invoice.data.id));
  if (bought.length > 0) {
    const due = await makeDue(
      db,
      bought.map((b) => b.orderId),
    );
    about.info({ due }, "an upstream webhook made its orders due");
    return { accepted: true, due };
  }
  // No purchase names this invoice yet. Every invoice that names this shop's webhook URL is one of its purchases: one
  // whose answer has not been recorded (the upstream sent its webhook first, or this shop was killed before it heard
  // the answer). Asked again under the same key, the upstream answers that invoice; the message is wanted again then.
  const waiting = await db
    .select({ orderId: upstreamPurchases.orderId })
    .from(upstreamPurchases)
    .where(
      and(
        isNull(upstreamPurchases.upstreamInvoiceId),
        isNotNull(upstreamPurchases.request),
        // Buying, not held (a refused `balance_too_low` made an invoice no purchase keeps), asked lately: an invoice
        // no purchase will ever name is not wanted again and again.
        eq(upstreamPurchases.status, "buying"),
        gt(upstreamPurchases.updatedAt, new Date(Date.now() - EARLY_WEBHOOK_WINDOW_MS)),
      ),
    );
  if (waiting.length === 0) return { accepted: true, due: 0 };
  const due = await makeDue(
    db,
    waiting.map((w) => w.orderId),
  );
  about.info(
    { due, waiting: waiting.length },
    "an upstream webhook names an invoice not recorded yet: its purchases are asked again, the webhook is to come again",
  );
  return { accepted: true, due, early: true };
}

/** Makes the unfinished ones of these orders due now, and has the worker look (a duplicate makes them due again: harmless). */
async function makeDue(db: Db, orderIds: string[]): Promise<number> {
  const due = await db
    .update(orders)
    .set({ runAt: new Date() })
    .where(and(inArray(orders.id, orderIds), inArray(orders.status, ["created", "processing"])))
    .returning({ id: orders.id });
  if (due.length > 0) kickWorker();
  return due.length;
}

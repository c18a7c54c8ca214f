import { and, eq, inArray } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/lib/db";
import { orders, upstreamPurchases } from "@/lib/db/schema";
import { kickWorker } from "@/lib/fulfilment";
import { log } from "@/lib/log";
import { upstreamInvoice } from "./client";

/** What became of an upstream webhook: refused (its signature does not verify), or taken (and how many orders it made due). */
export type WebhookReceipt = { accepted: false; reason: string } | { accepted: true; due: number };

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
  const bought = await db
    .select({ orderId: upstreamPurchases.orderId })
    .from(upstreamPurchases)
    .where(eq(upstreamPurchases.upstreamInvoiceId, invoice.data.id));
  if (bought.length === 0) return { accepted: true, due: 0 };
  const due = await db
    .update(orders)
    .set({ runAt: new Date() })
    .where(
      and(
        inArray(
          orders.id,
          bought.map((b) => b.orderId),
        ),
        inArray(orders.status, ["created", "processing"]),
      ),
    )
    .returning({ id: orders.id });
  if (due.length > 0) kickWorker();
  return { accepted: true, due: due.length };
}

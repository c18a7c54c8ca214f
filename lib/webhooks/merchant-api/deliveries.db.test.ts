import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getInvoiceRoute } from "@/app/api/v2/invoices/[id]/route";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { POST as redeliverRoute } from "@/app/api/v2/webhooks/deliveries/[id]/redeliver/route";
import { GET as getDeliveryRoute } from "@/app/api/v2/webhooks/deliveries/[id]/route";
import { GET as listDeliveriesRoute } from "@/app/api/v2/webhooks/deliveries/route";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { invoices, orders, webhookDeliveries } from "@/lib/platform/db/schema";
import { drainDue } from "@/lib/fulfilment";
import { expireInvoices } from "@/lib/checkout";
import { createMerchant } from "@/lib/merchants";
import { drainWebhooks } from "@/lib/webhooks";
import { startReceiver, type Receiver } from "@/test/webhooks";

let database: Database;
let restore: () => void;
const receivers: Receiver[] = [];
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
  restore = useAsProcessDatabase(database);
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  restore?.();
  await database?.close();
});

const HOUR = 3_600_000;

describe(`merchant invoice webhooks on ${testDriver}`, () => {
  it("delivers the final invoice to a receiver that fails twice, on the third attempt, with the same webhook-id and a valid signature", async () => {
    const m = await createMerchant(database.db, { name: "Hooks", creditCents: 5_000n });
    const receiver = await startReceiver((_req, i) => (i < 2 ? { status: 500, body: "not yet" } : { status: 204 }));
    receivers.push(receiver);
    const created = await callRoute(createRoute, "/api/v2/invoices", {
      headers: bearerAuth(m.api_token),
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true, webhook_url: receiver.url() },
    });
    const invoiceId = (created.body.data as { id: string }).id;
    await drainDue(database.db);

    // Attempts are due later and later: drive the clock forward instead of waiting.
    let now = Date.now();
    for (let round = 0; round < 10 && receiver.requests.length < 3; round++) {
      await drainWebhooks(database.db, { now: new Date(now), mode: "devnet", random: () => 0.5 });
      now += HOUR;
    }
    expect(receiver.requests).toHaveLength(3);
    const ids = new Set(receiver.requests.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const last = receiver.requests[2]!;
    const verified = new Webhook(m.webhook_secret).verify(last.body, last.headers as Record<string, string>) as {
      id: string;
      status: string;
      orders: { status: string }[];
    };
    expect(verified).toMatchObject({ id: invoiceId, status: "complete", orders: [{ status: "delivered" }] });

    // The delivery log through the API: the target URL, the event time apart from the send times, every attempt.
    const auth = bearerAuth(m.api_token);
    const list = await callRoute(listDeliveriesRoute, `/api/v2/webhooks/deliveries?invoice_id=${invoiceId}`, { headers: auth });
    const [delivery] = list.body.data as {
      id: string;
      url: string;
      status: string;
      attempts: number;
      event_type: string;
      event_time: string;
      last_attempt: { status_code: number };
    }[];
    expect(delivery).toMatchObject({
      id: [...ids][0],
      url: receiver.url(),
      status: "delivered",
      attempts: 3,
      event_type: "invoice.complete",
      last_attempt: { status_code: 204 },
    });
    const one = await callRoute(getDeliveryRoute, `/api/v2/webhooks/deliveries/${delivery!.id}`, { headers: auth, params: { id: delivery!.id } });
    expect(
      (one.body.data as { attempt_log: { status_code: number; response_excerpt: string }[] }).attempt_log.map((a) => [a.status_code, a.response_excerpt]),
    ).toEqual([
      [500, "not yet"],
      [500, "not yet"],
      [204, null],
    ]);

    // Redelivery sends it once more, same id, and answers the attempt.
    const again = await callRoute(redeliverRoute, `/api/v2/webhooks/deliveries/${delivery!.id}/redeliver`, {
      method: "POST",
      headers: auth,
      params: { id: delivery!.id },
    });
    expect(again).toMatchObject({ status: 200, body: { data: { attempt: { attempt: 4, status_code: 204 } } } });
    expect(receiver.requests).toHaveLength(4);
    expect(receiver.requests[3]!.headers["webhook-id"]).toBe([...ids][0]);
    // Another merchant cannot see or redeliver it.
    const other = bearerAuth((await createMerchant(database.db, { name: "Other" })).api_token);
    expect(
      (
        await callRoute(redeliverRoute, `/api/v2/webhooks/deliveries/${delivery!.id}/redeliver`, {
          method: "POST",
          headers: other,
          params: { id: delivery!.id },
        })
      ).status,
    ).toBe(404);
  });

  it("ends an invoice that expires unpaid denied (status_reason expired), its orders failed, with one webhook even when two sweeps race", async () => {
    const m = await createMerchant(database.db, { name: "Late" });
    const receiver = await startReceiver();
    receivers.push(receiver);
    const auth = bearerAuth(m.api_token);
    const created = await callRoute(createRoute, "/api/v2/invoices", {
      headers: auth,
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", webhook_url: receiver.url("/late") },
    });
    const invoiceId = (created.body.data as { id: string }).id;
    const get = async () => (await callRoute(getInvoiceRoute, `/api/v2/invoices/${invoiceId}`, { headers: auth, params: { id: invoiceId } })).body.data;
    // Its time runs out (moved back rather than waited for). Before any sweep it reads as final already, as swept.
    await database.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invoices.id, invoiceId));
    const before = await get();
    expect(before).toMatchObject({
      id: invoiceId,
      status: "denied",
      status_reason: "expired",
      payment: { status: "expired", paid_time: null },
      orders: [{ status: "failed", error: "The invoice expired before it was paid: nothing was charged." }],
    });
    expect((before as { completed_time: string }).completed_time).toBe((before as { expires_time: string }).expires_time);

    // Two servers' sweeps at once: one ends it, one message is written.
    const ended = await Promise.all([expireInvoices(database.db), expireInvoices(database.db)]);
    expect(ended.reduce((n, e) => n + e, 0)).toBeGreaterThanOrEqual(1);
    await expireInvoices(database.db);
    const messages = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.invoiceId, invoiceId));
    expect(messages.map((d) => d.eventType)).toEqual(["invoice.denied"]);
    const orderRows = await database.db.select().from(orders).where(eq(orders.invoiceId, invoiceId));
    expect(orderRows.map((o) => [o.status, o.errorCode])).toEqual([["failed", "expired"]]);

    await drainWebhooks(database.db, { mode: "devnet" });
    expect(receiver.requests).toHaveLength(1);
    const body = new Webhook(m.webhook_secret).verify(receiver.requests[0]!.body, receiver.requests[0]!.headers as Record<string, string>);
    expect(receiver.requests[0]!.headers["webhook-id"]).toMatch(/^msg_/);
    // The webhook carries what GET /invoices/{id} answers, before the sweep as after it.
    expect(body).toEqual(await get());
    expect(body).toEqual(before);
  });

  it("delivers the invoice object GET /invoices/{id} answers for the same state, a USDC invoice's payment fields included", async () => {
    const m = await createMerchant(database.db, { name: "Usdc" });
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await callRoute(createRoute, "/api/v2/invoices", {
      headers: bearerAuth(m.api_token),
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base", webhook_url: receiver.url("/usdc") },
    });
    const invoiceId = (created.body.data as { id: string }).id;
    // While it can be paid, the answer says how; the final invoice does not.
    expect((created.body.data as { payment: Record<string, unknown> }).payment).toMatchObject({ payment_url: expect.any(String), address: expect.any(String) });
    const later = new Date(Date.now() + 2 * HOUR);
    expect(await expireInvoices(database.db, later)).toBeGreaterThanOrEqual(1);
    await drainWebhooks(database.db, { now: later, mode: "devnet" });
    const delivered = receiver.requests.find((r) => r.url.endsWith("/usdc"));
    const body = new Webhook(m.webhook_secret).verify(delivered!.body, delivered!.headers as Record<string, string>) as { payment: Record<string, unknown> };
    const polled = await callRoute(getInvoiceRoute, `/api/v2/invoices/${invoiceId}`, { headers: bearerAuth(m.api_token), params: { id: invoiceId } });
    expect(body).toEqual(polled.body.data);
    expect(body.payment).toMatchObject({ method: "usdc_base", network_name: expect.any(String), address: expect.any(String), amount_usdc: "10" });
    expect(body.payment.payment_url).toBeUndefined();
  });

  it("ends an auto_pay the balance cannot cover denied with its reason, its orders failed, and sends its webhook", async () => {
    const m = await createMerchant(database.db, { name: "Poor", creditCents: 500n });
    const receiver = await startReceiver();
    receivers.push(receiver);
    const refused = await callRoute(createRoute, "/api/v2/invoices", {
      headers: bearerAuth(m.api_token),
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true, webhook_url: receiver.url("/poor") },
    });
    expect([refused.status, refused.body.error_code]).toEqual([402, "balance_too_low"]);
    const invoiceId = refused.body.invoice_id as string;
    const polled = await callRoute(getInvoiceRoute, `/api/v2/invoices/${invoiceId}`, { headers: bearerAuth(m.api_token), params: { id: invoiceId } });
    expect(polled.body.data).toMatchObject({
      status: "denied",
      status_reason: "balance_too_low",
      payment: { status: "denied" },
      orders: [{ status: "failed", error: expect.stringContaining("balance") }],
    });
    await drainWebhooks(database.db, { mode: "devnet" });
    const delivered = receiver.requests.filter((r) => r.url.endsWith("/poor"));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.headers["webhook-id"]).toMatch(/^msg_/);
    const body = new Webhook(m.webhook_secret).verify(delivered[0]!.body, delivered[0]!.headers as Record<string, string>);
    expect(body).toEqual(polled.body.data);
  });

  it("refuses a webhook URL the guard would never send to, without waiting on DNS", async () => {
    const m = await createMerchant(database.db, { name: "Guarded", creditCents: 5_000n });
    const res = await callRoute(createRoute, "/api/v2/invoices", {
      headers: bearerAuth(m.api_token),
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", webhook_url: "http://10.1.2.3/hook" },
    });
    expect([res.status, res.body.error_code]).toEqual([400, "invalid_param"]);
    // The guard's own reason: a private address is never a webhook target.
    expect(res.body.message).toMatch(/^Invalid parameter webhook_url: goes to 10\.1\.2\.3, /);
  });
});

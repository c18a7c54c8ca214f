import { asc, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/platform/db";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/platform/db/schema";
import { testDriver } from "@/test/db";
import { maxAttempts, retrySchedule } from "./backoff";
import { claimDueDeliveries } from "./claim";
import { deliverClaimed, drainWebhooks, type DrainWebhooksOptions } from "./drain";
import { enqueueWebhook } from "./enqueue";
import { enableWebhookEndpoint, listWebhookEndpoints } from "./endpoints";
import { enqueueInvoiceMessage, insertFinalInvoice, insertTestMerchant, webhookTestBed, type ReceivedRequest } from "@/test/webhooks";

const bed = webhookTestBed();
const receiver = bed.receiver;
let db: Db;
beforeAll(() => {
  db = bed.database().db;
});

const finalInvoice = (merchantId: string) => insertFinalInvoice(db, merchantId);
const enqueue = (merchantId: string, url: string, now = new Date()) => enqueueInvoiceMessage(db, merchantId, url, now);

const drain = (opts: DrainWebhooksOptions = {}) => drainWebhooks(db, { mode: "devnet", retryBaseSeconds: 10, random: () => 0.5, ...opts });

const delivery = async (id: string) => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
const attemptsOf = (id: string) => db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(asc(webhookAttempts.attempt));
const endpoint = async (merchantId: string, url: string) => (await listWebhookEndpoints(db, merchantId)).find((e) => e.url === url);
const later = (t: Date, ms: number) => new Date(t.getTime() + ms);
const verify = (secret: string, r: ReceivedRequest) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

describe(`webhook outbox on ${testDriver}`, () => {
  it("writes the message in the caller's transaction: none when it rolls back", async () => {
    const m = await insertTestMerchant(db);
    const invoice = await finalInvoice(m.id);
    const event = {
      merchantId: m.id,
      invoiceId: invoice.id,
      url: "https://hooks.example.com/x",
      eventType: "invoice.complete" as const,
      payload: invoice.payload,
      eventAt: new Date(),
    };
    await expect(
      db.transaction(async (tx) => {
        await enqueueWebhook(tx, event);
        throw new Error("the invoice update failed");
      }),
    ).rejects.toThrow("the invoice update failed");
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, m.id))).toEqual([]);

    const { id, held } = await db.transaction((tx) => enqueueWebhook(tx, event));
    expect(id).toMatch(/^msg_[0-9A-Z]{26}$/);
    expect(held).toBe(false);
    expect(await delivery(id)).toMatchObject({
      status: "pending",
      attempts: 0,
      eventType: "invoice.complete",
      invoiceId: invoice.id,
      payload: invoice.payload,
    });
    expect(await endpoint(m.id, event.url)).toMatchObject({ consecutiveFailures: 0, disabledAt: null, pendingDeliveries: 1 });
  });

  it("refuses a payload that is not JSON, inside the caller's transaction", async () => {
    const m = await insertTestMerchant(db);
    await expect(
      db.transaction((tx) =>
        enqueueWebhook(tx, {
          merchantId: m.id,
          invoiceId: null,
          url: "https://hooks.example.com/",
          eventType: "test",
          payload: { price: 10n },
          eventAt: new Date(),
        }),
      ),
    ).rejects.toThrow(/webhook payload is not JSON/);
  });
});

describe(`webhook worker on ${testDriver}`, () => {
  it("delivers the invoice, signed, and logs the attempt", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 200, body: '{"ok":true}' }));
    const t0 = new Date();
    const { id, invoice } = await enqueue(m.id, r.url(), t0);

    expect(await drain({ now: t0 })).toMatchObject({ claimed: 1, delivered: 1 });
    expect(r.requests).toHaveLength(1);
    const [req] = r.requests;
    expect(req!.headers["webhook-id"]).toBe(id);
    expect(verify(m.secret, req!)).toEqual(invoice.payload);
    expect(await delivery(id)).toMatchObject({
      status: "delivered",
      attempts: 1,
      deliveredAt: t0,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      lockedUntil: null,
    });
    expect(await attemptsOf(id)).toMatchObject([{ attempt: 1, url: r.url(), sentAt: t0, statusCode: 200, responseExcerpt: '{"ok":true}', error: null }]);
    // Sent once: a second drain finds nothing due.
    expect(await drain({ now: later(t0, 3_600_000) })).toMatchObject({ claimed: 0 });
  });

  it("retries a failing receiver with backoff, the same webhook-id and body every time", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver((_, i) => (i < 2 ? { status: i === 0 ? 500 : 503, body: "down" } : { status: 204 }));
    const t0 = new Date();
    const { id } = await enqueue(m.id, r.url(), t0);
    const [first, second] = retrySchedule(10);

    expect(await drain({ now: t0 })).toMatchObject({ retry: 1 });
    expect(await delivery(id)).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: later(t0, first!), lastStatusCode: 500, lastError: "HTTP 500" });
    // Not due before its time.
    expect(await drain({ now: later(t0, first! - 1) })).toMatchObject({ claimed: 0 });
    const t1 = later(t0, first!);
    expect(await drain({ now: t1 })).toMatchObject({ retry: 1 });
    expect((await delivery(id)).nextAttemptAt).toEqual(later(t1, second!));
    expect(await drain({ now: later(t1, second!) })).toMatchObject({ delivered: 1 });

    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.headers["webhook-id"]))).toEqual(new Set([id]));
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    for (const q of r.requests) expect(verify(m.secret, q)).toMatchObject({ status: "complete" });
    expect((await attemptsOf(id)).map((a) => [a.attempt, a.statusCode, a.responseExcerpt])).toEqual([
      [1, 500, "down"],
      [2, 503, "down"],
      [3, 204, null],
    ]);
    expect(await delivery(id)).toMatchObject({ status: "delivered", attempts: 3 });
    expect(await endpoint(m.id, r.url())).toMatchObject({ consecutiveFailures: 0, disabledAt: null });
  });

  it("records a timeout as an attempt without a status, and retries it", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => "hang");
    const t0 = new Date();
    const { id } = await enqueue(m.id, r.url(), t0);
    expect(await drain({ now: t0, timeoutMs: 150 })).toMatchObject({ retry: 1 });
    const [a] = await attemptsOf(id);
    expect(a).toMatchObject({ attempt: 1, statusCode: null, responseExcerpt: null, error: "timed out after 150 ms" });
    expect(a!.durationMs).toBeGreaterThanOrEqual(140);
    expect(await delivery(id)).toMatchObject({ status: "pending", lastStatusCode: null, lastError: "timed out after 150 ms" });
    expect(await endpoint(m.id, r.url())).toMatchObject({ consecutiveFailures: 1 });
  });

  it("stops at a 410: the message fails, the endpoint is disabled, its other messages are held until re-enabled", async () => {
    const m = await insertTestMerchant(db);
    let gone = true;
    const r = await receiver(() => (gone ? { status: 410, body: "no longer" } : { status: 200 }));
    const t0 = new Date();
    const first = await enqueue(m.id, r.url(), t0);
    expect(await drain({ now: t0 })).toMatchObject({ gone: 1 });
    expect(await delivery(first.id)).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
    expect(await endpoint(m.id, r.url())).toMatchObject({ disabledReason: "the endpoint answered 410 Gone", consecutiveFailures: 1 });
    expect((await endpoint(m.id, r.url()))!.disabledAt).toEqual(t0);

    // New messages to it are recorded, held, and not sent.
    const second = await enqueue(m.id, r.url(), later(t0, 1_000));
    expect(await delivery(second.id)).toMatchObject({ status: "pending", nextAttemptAt: null });
    expect(await drain({ now: later(t0, 86_400_000) })).toMatchObject({ claimed: 0 });
    expect(r.requests).toHaveLength(1);
    expect(await endpoint(m.id, r.url())).toMatchObject({ pendingDeliveries: 1 });

    // Re-enabled: the held message goes out; the 410'd one stays failed (a redelivery is the merchant's call).
    gone = false;
    const t1 = later(t0, 2 * 86_400_000);
    expect(await enableWebhookEndpoint(db, m.id, r.url(), { now: t1 })).toEqual({ released: 1 });
    expect(await endpoint(m.id, r.url())).toMatchObject({ disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
    expect(await drain({ now: t1 })).toMatchObject({ delivered: 1 });
    expect(r.requests.map((q) => q.headers["webhook-id"])).toEqual([first.id, second.id]);
    expect(await delivery(first.id)).toMatchObject({ status: "failed" });
    await expect(enableWebhookEndpoint(db, m.id, "https://never.example.com/")).rejects.toMatchObject({ code: "not_found" });
  });

  it("holds the messages already waiting for an endpoint when it is disabled", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 410 }));
    const t0 = new Date();
    const first = await enqueue(m.id, r.url(), t0);
    const second = await enqueue(m.id, r.url(), later(t0, 1));
    expect(await drain({ now: later(t0, 1), limit: 1 })).toMatchObject({ claimed: 1, gone: 1 });
    expect(r.requests.map((q) => q.headers["webhook-id"])).toEqual([first.id]);
    expect(await delivery(second.id)).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: null });
    expect(await enableWebhookEndpoint(db, m.id, r.url(), { now: later(t0, 2) })).toEqual({ released: 1 });
    expect((await delivery(second.id)).nextAttemptAt).toEqual(later(t0, 2));
  });

  it("gives a message up after about a day of failures, and disables an endpoint that accepted nothing meanwhile", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 500 }));
    const t0 = new Date();
    const { id } = await enqueue(m.id, r.url(), t0);
    let now = t0;
    for (let i = 0; i < 50; i++) {
      await drain({ now });
      const d = await delivery(id);
      if (d.status !== "pending") break;
      now = d.nextAttemptAt!;
    }
    const attempts = await attemptsOf(id);
    expect(attempts).toHaveLength(maxAttempts(10));
    expect(await delivery(id)).toMatchObject({ status: "failed", attempts: maxAttempts(10), nextAttemptAt: null, lastError: "HTTP 500" });
    const span = attempts.at(-1)!.sentAt.getTime() - attempts[0]!.sentAt.getTime();
    expect(span / 3_600_000).toBeGreaterThan(20);
    expect(span / 3_600_000).toBeLessThan(30);
    // The waits between attempts grow.
    const gaps = attempts.slice(1).map((a, i) => a.sentAt.getTime() - attempts[i]!.sentAt.getTime());
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1]!);
    expect(await endpoint(m.id, r.url())).toMatchObject({
      consecutiveFailures: maxAttempts(10),
      disabledReason: expect.stringMatching(/^no message accepted in 11 attempts in a row/),
    });
  });

  it("keeps an endpoint that accepts other messages enabled when one message is given up", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 500 }));
    const t0 = new Date();
    const { id } = await enqueue(m.id, r.url(), t0);
    // Spend all but the last attempt.
    let now = t0;
    for (let i = 1; i < maxAttempts(10); i++) {
      await drain({ now });
      now = (await delivery(id)).nextAttemptAt!;
    }
    // Another message got through just before (its attempt was a success: the count starts again).
    await db.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(eq(webhookEndpoints.merchantId, m.id));
    await drain({ now });
    expect(await delivery(id)).toMatchObject({ status: "failed" });
    expect(await endpoint(m.id, r.url())).toMatchObject({ disabledAt: null, consecutiveFailures: 1 });
  });

  it("never sends the same attempt twice: concurrent drains split the messages", async () => {
    const m = await insertTestMerchant(db);
    // Slow enough for the other drain to claim meanwhile on a real server.
    const r = await receiver(() => ({ status: 200, delayMs: 30 }));
    const t0 = new Date();
    const ids = await Promise.all(Array.from({ length: 8 }, () => enqueue(m.id, r.url(), t0).then((e) => e.id)));
    const [a, b] = await Promise.all([drain({ now: t0, limit: 2 }), drain({ now: t0, limit: 2 })]);
    // Both drains took part, each claiming messages the other skipped.
    expect(a.claimed).toBeGreaterThan(0);
    expect(b.claimed).toBeGreaterThan(0);
    expect(a.claimed + b.claimed).toBe(8);
    expect(a.delivered + b.delivered).toBe(8);
    expect(r.requests.map((q) => q.headers["webhook-id"]).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await delivery(id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("lets a lapsed claim be taken again, and the late worker's outcome never overwrites the new one's", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver((_, i) => (i === 0 ? { status: 200 } : { status: 500 }));
    const t0 = new Date();
    const { id } = await enqueue(m.id, r.url(), t0);
    const [slow] = await claimDueDeliveries(db, { limit: 10, now: t0, lockMs: 1_000 });
    expect(slow).toMatchObject({ id, attempt: 1 });
    expect(await claimDueDeliveries(db, { limit: 10, now: later(t0, 500) })).toEqual([]);
    const [next] = await claimDueDeliveries(db, { limit: 10, now: later(t0, 2_000) });
    expect(next).toMatchObject({ id, attempt: 2 });

    const opts = { mode: "devnet" as const, retryBaseSeconds: 10, random: () => 0.5 };
    expect(await deliverClaimed(db, next!, { ...opts, now: later(t0, 2_000) })).toBe("delivered");
    // The first claim's worker answers last, with a failure: logged, but the message stays delivered.
    expect(await deliverClaimed(db, slow!, { ...opts, now: later(t0, 3_000) })).toBe("retry");
    expect(await delivery(id)).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
    expect((await attemptsOf(id)).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });

  it("sends nothing to loopback in testnet mode: a blocked attempt, retried later", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver();
    const t0 = new Date();
    const { id } = await enqueue(m.id, r.url(), t0);
    expect(await drain({ now: t0, mode: "testnet" })).toMatchObject({ retry: 1 });
    expect(r.requests).toHaveLength(0);
    expect(await attemptsOf(id)).toMatchObject([{ statusCode: null, error: "blocked: must be an https URL" }]);
  });
});

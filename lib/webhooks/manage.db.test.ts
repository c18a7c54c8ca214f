import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/platform/db";
import { webhookDeliveries } from "@/lib/platform/db/schema";
import { testDriver } from "@/test/db";
import { getWebhookDelivery, listWebhookDeliveries } from "./deliveries";
import { retrySchedule } from "./backoff";
import { drainWebhooks, type DrainWebhooksOptions } from "./drain";
import { listWebhookEndpoints } from "./endpoints";
import { redeliverWebhook, sendTestWebhook } from "./manual-send";
import { getWebhookSecrets, rotateWebhookSecret, ROTATION_OVERLAP_MS } from "./secrets";
import { isWebhookSecret } from "@/lib/merchants/secrets";
import { enqueueInvoiceMessage, insertTestMerchant, webhookTestBed, type ReceivedRequest } from "@/test/webhooks";
import { kickWebhookWorker, startWebhookWorker } from "./worker";

const bed = webhookTestBed();
const receiver = bed.receiver;
let db: Db;
beforeAll(() => {
  db = bed.database().db;
});

const drain = (opts: DrainWebhooksOptions = {}) => drainWebhooks(db, { mode: "devnet", retryBaseSeconds: 10, random: () => 0.5, ...opts });
const verify = (secret: string, r: ReceivedRequest) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
const later = (t: Date, ms: number) => new Date(t.getTime() + ms);

describe(`redelivery on ${testDriver}`, () => {
  it("sends a failed message again with the same webhook-id, as the next attempt, and marks it delivered", async () => {
    const m = await insertTestMerchant(db);
    let status = 410;
    const r = await receiver(() => ({ status, body: status === 200 ? "ok" : "gone" }));
    const t0 = new Date();
    const { id, invoice } = await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    await drain({ now: t0 });

    status = 200;
    const result = await redeliverWebhook(db, m.id, id, { mode: "devnet", now: later(t0, 60_000) });
    expect(result.attempt).toMatchObject({ attempt: 2, statusCode: 200, responseExcerpt: "ok", error: null });
    expect(result.endpointDisabled).toBe(true);
    expect(result.delivery).toMatchObject({ id, status: "delivered", attempts: 2, deliveredAt: later(t0, 60_000), lastStatusCode: 200 });
    expect(result.delivery.attemptLog.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 410],
      [2, 200],
    ]);
    expect(r.requests.map((q) => q.headers["webhook-id"])).toEqual([id, id]);
    expect(verify(m.secret, r.requests[1]!)).toEqual(invoice.payload);
    // Redelivery does not re-enable the endpoint: that is the merchant's own step.
    expect((await listWebhookEndpoints(db, m.id))[0]).toMatchObject({ disabledReason: "the endpoint answered 410 Gone" });
  });

  it("leaves a message's state alone when the redelivery fails too", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 500, body: "still down" }));
    const t0 = new Date();
    const { id } = await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    await drain({ now: t0 });
    const before = (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
    const result = await redeliverWebhook(db, m.id, id, { mode: "devnet", now: later(t0, 1_000) });
    expect(result.attempt).toMatchObject({ attempt: 2, statusCode: 500, responseExcerpt: "still down" });
    expect(result.delivery).toMatchObject({ status: "pending", attempts: 2, nextAttemptAt: before.nextAttemptAt, lastStatusCode: 500 });
    // Manual sends do not count against the endpoint.
    expect((await listWebhookEndpoints(db, m.id))[0]).toMatchObject({ consecutiveFailures: 1, disabledAt: null });
  });

  it("does not use up the automatic retries: the worker's next wait is the one the schedule had next", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 500, body: "down" }));
    const t0 = new Date();
    const { id } = await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    const [first, second] = retrySchedule(10);
    await drain({ now: t0 });
    // Two manual redeliveries between the worker's first and second attempts.
    await redeliverWebhook(db, m.id, id, { mode: "devnet", now: later(t0, 1_000) });
    await redeliverWebhook(db, m.id, id, { mode: "devnet", now: later(t0, 2_000) });
    const t1 = later(t0, first!);
    expect(await drain({ now: t1 })).toMatchObject({ retry: 1 });
    const row = (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
    // The worker's second attempt is number 4 in the log, and waits the schedule's second delay (random 0.5: no jitter).
    expect(row).toMatchObject({ attempts: 4, manualAttempts: 2, nextAttemptAt: later(t1, second!) });
    expect((await getWebhookDelivery(db, m.id, id))!.attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
  });

  it("finds only the merchant's own messages", async () => {
    const [a, b] = [await insertTestMerchant(db), await insertTestMerchant(db)];
    const { id } = await enqueueInvoiceMessage(db, a.id, "https://hooks.example.com/a");
    await expect(redeliverWebhook(db, b.id, id, { mode: "devnet" })).rejects.toMatchObject({ code: "not_found" });
    expect(await getWebhookDelivery(db, b.id, id)).toBeNull();
    expect((await listWebhookDeliveries(db, b.id)).deliveries).toEqual([]);
  });
});

describe(`test events on ${testDriver}`, () => {
  it("sends a signed test message to a URL and logs it", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 202, body: "got it" }));
    const result = await sendTestWebhook(db, m.id, { url: r.url("/try") }, { mode: "devnet" });
    expect(result.attempt).toMatchObject({ attempt: 1, url: r.url("/try"), statusCode: 202, responseExcerpt: "got it" });
    expect(result.delivery).toMatchObject({ eventType: "test", invoiceId: null, status: "delivered", attempts: 1, nextAttemptAt: null });
    expect(verify(m.secret, r.requests[0]!)).toMatchObject({ type: "test", id: result.delivery.id });
    expect(r.requests[0]!.headers["webhook-id"]).toBe(result.delivery.id);
    // Never retried, and no endpoint record for a URL merely tried.
    expect(await drain({ now: later(new Date(), 86_400_000) })).toMatchObject({ claimed: 0 });
    expect(await listWebhookEndpoints(db, m.id)).toEqual([]);
  });

  it("sends the caller's sample payload, and logs a failure as failed", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 401, body: "bad signature" }));
    const sample = { id: "inv_01JSAMPLE", status: "complete", orders: [] };
    const result = await sendTestWebhook(db, m.id, { url: r.url(), payload: sample }, { mode: "devnet" });
    expect(result.delivery).toMatchObject({ status: "failed", lastStatusCode: 401, lastError: "HTTP 401", payload: sample });
    expect(JSON.parse(r.requests[0]!.body)).toEqual(sample);
  });

  it("refuses a URL by its text, and logs a blocked send", async () => {
    const m = await insertTestMerchant(db);
    await expect(sendTestWebhook(db, m.id, { url: "ftp://hooks.example.com/" }, { mode: "devnet" })).rejects.toMatchObject({
      code: "invalid_webhook_url",
      message: "The URL must be an http or https URL",
    });
    await expect(sendTestWebhook(db, m.id, { url: "https://127.0.0.1/x" }, { mode: "mainnet" })).rejects.toMatchObject({ code: "invalid_webhook_url" });
    const blocked = await sendTestWebhook(
      db,
      m.id,
      { url: "https://intranet.test/x" },
      { mode: "mainnet", resolve: async () => [{ address: "10.0.0.2", family: 4 }] },
    );
    expect(blocked.attempt).toMatchObject({ statusCode: null, error: "blocked: host intranet.test resolves to 10.0.0.2, a private address" });
    expect(blocked.delivery.status).toBe("failed");
  });
});

describe(`secret rotation on ${testDriver}`, () => {
  it("signs with both secrets for a day after a rotation, then with the new one only", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver();
    const t0 = new Date();
    expect(await getWebhookSecrets(db, m.id, t0)).toEqual({ secret: m.secret, previous: null });

    const rotated = await rotateWebhookSecret(db, m.id, { now: t0 });
    expect(isWebhookSecret(rotated.secret)).toBe(true);
    expect(rotated.secret).not.toBe(m.secret);
    expect(rotated.previous).toEqual({ secret: m.secret, until: later(t0, ROTATION_OVERLAP_MS) });
    expect(await getWebhookSecrets(db, m.id, t0)).toEqual(rotated);

    await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    await drain({ now: t0 });
    const during = r.requests[0]!;
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(rotated.secret, during)).toMatchObject({ status: "complete" });
    expect(verify(m.secret, during)).toMatchObject({ status: "complete" });

    const after = later(t0, ROTATION_OVERLAP_MS + 1);
    expect(await getWebhookSecrets(db, m.id, after)).toEqual({ secret: rotated.secret, previous: null });
    await enqueueInvoiceMessage(db, m.id, r.url(), after);
    await drain({ now: after });
    const afterwards = r.requests[1]!;
    expect(String(afterwards.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verify(rotated.secret, afterwards)).toMatchObject({ status: "complete" });
    expect(() => verify(m.secret, afterwards)).toThrow(/No matching signature/);

    // Rotating again keeps only the last two secrets.
    const again = await rotateWebhookSecret(db, m.id, { now: after });
    expect(again.previous?.secret).toBe(rotated.secret);
    await expect(rotateWebhookSecret(db, "mer_missing")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe(`delivery log on ${testDriver}`, () => {
  it("lists the store's messages newest first, a page at a time, with their latest attempt", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver((_, i) => (i % 2 === 0 ? { status: 200, body: `ok ${i}` } : { status: 500, body: `down ${i}` }));
    const t0 = new Date();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await enqueueInvoiceMessage(db, m.id, r.url(), later(t0, i * 1000))).id);
    await drain({ now: later(t0, 10_000) });

    const first = await listWebhookDeliveries(db, m.id, { limit: 2 });
    expect(first.deliveries.map((d) => d.id)).toEqual([ids[4], ids[3]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listWebhookDeliveries(db, m.id, { limit: 2, cursor: first.nextCursor! });
    expect(second.deliveries.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const third = await listWebhookDeliveries(db, m.id, { limit: 2, cursor: second.nextCursor! });
    expect(third.deliveries.map((d) => d.id)).toEqual([ids[0]]);
    expect(third.nextCursor).toBeNull();

    const newest = first.deliveries[0]!;
    expect(newest).toMatchObject({
      url: r.url(),
      eventType: "invoice.complete",
      eventAt: later(t0, 4000),
      attempts: 1,
      payload: expect.objectContaining({ status: "complete" }),
    });
    expect(newest.lastAttempt).toMatchObject({
      attempt: 1,
      url: r.url(),
      sentAt: later(t0, 10_000),
      statusCode: expect.any(Number),
      responseExcerpt: expect.stringMatching(/^(ok|down) \d$/),
    });

    const failing = await listWebhookDeliveries(db, m.id, { status: "pending" });
    expect(failing.deliveries).toHaveLength(2);
    for (const d of failing.deliveries) expect(d.lastAttempt?.statusCode).toBe(500);
    const one = await listWebhookDeliveries(db, m.id, { invoiceId: newest.invoiceId! });
    expect(one.deliveries.map((d) => d.id)).toEqual([newest.id]);
    await expect(listWebhookDeliveries(db, m.id, { cursor: "nonsense" })).rejects.toMatchObject({ code: "invalid_cursor" });
    // A date the database cannot hold is refused as a bad cursor, not passed on (it would fail as a 500).
    const crafted = Buffer.from("-271821-04-20T00:00:00.000Z|msg_01AAAAAAAAAAAAAAAAAAAAAAAA").toString("base64url");
    await expect(listWebhookDeliveries(db, m.id, { cursor: crafted })).rejects.toMatchObject({ code: "invalid_cursor" });
  });

  it("shows one message with every attempt, oldest first", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver((_, i) => (i === 0 ? { status: 503 } : { status: 200 }));
    const t0 = new Date();
    const { id } = await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    await drain({ now: t0 });
    await drain({ now: later(t0, 3_600_000) });
    const d = await getWebhookDelivery(db, m.id, id);
    expect(d).toMatchObject({ id, status: "delivered", attempts: 2, eventAt: t0 });
    expect(d!.attemptLog.map((a) => [a.attempt, a.statusCode, a.sentAt])).toEqual([
      [1, 503, t0],
      [2, 200, later(t0, 3_600_000)],
    ]);
  });
});

describe(`webhook worker loop on ${testDriver}`, () => {
  it("ends a drain after the round in flight once the server stops, leaving the rest for the next start", async () => {
    const m = await insertTestMerchant(db);
    const stopping = new AbortController();
    const r = await receiver(() => {
      stopping.abort();
      return { status: 200 };
    });
    const t0 = new Date();
    for (let i = 0; i < 3; i++) await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    expect(await drain({ now: t0, limit: 1, signal: stopping.signal })).toMatchObject({ claimed: 1, delivered: 1 });
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, m.id));
    expect(rows.map((d) => d.status).sort()).toEqual(["delivered", "pending", "pending"]);
    expect(await drain({ now: t0 })).toMatchObject({ claimed: 2, delivered: 2 });
  });

  it("sends a message when kicked, and stops", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver();
    // A long interval: only the kick can make this pass happen within the test.
    const worker = startWebhookWorker(async () => db, { mode: "devnet", retryBaseSeconds: 10, intervalMs: 60_000 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the start-up pass finds nothing
      const { id } = await enqueueInvoiceMessage(db, m.id, r.url());
      kickWebhookWorker();
      const deadline = Date.now() + 10_000;
      while (r.requests.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(r.requests[0]?.headers["webhook-id"]).toBe(id);
    } finally {
      await worker.stop();
    }
  });

  it("logs a failing pass and carries on", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const worker = startWebhookWorker(
      async () => {
        calls++;
        if (calls === 1) throw new Error("database down");
        return db;
      },
      { mode: "devnet", retryBaseSeconds: 10, intervalMs: 10, onError: (e) => errors.push(e) },
    );
    try {
      const deadline = Date.now() + 5_000;
      while (calls < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(errors).toHaveLength(1);
      expect(calls).toBeGreaterThanOrEqual(3);
    } finally {
      await worker.stop();
    }
  });
});

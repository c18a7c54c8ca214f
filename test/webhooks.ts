import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { Database, Db } from "@/lib/platform/db";
import { invoices, merchants, webhookDeliveries } from "@/lib/platform/db/schema";
import { openTestDatabase } from "@/test/db";
import { newId } from "@/lib/platform/ids";
import { enqueueWebhook } from "@/lib/webhooks/enqueue";
import { invoiceEventType, type FinalInvoiceStatus } from "@/lib/webhooks/events";
import { newWebhookSecret } from "@/lib/merchants/secrets";

/** A merchant row for tests, with a fresh signing secret. */
export async function insertTestMerchant(db: Db, name = "Test merchant"): Promise<{ id: string; secret: string }> {
  const id = `mer_test_${randomBytes(6).toString("hex")}`;
  const secret = newWebhookSecret();
  await db.insert(merchants).values({ id, name, webhookSecret: secret });
  return { id, secret };
}

/** A final invoice of the merchant (outbox rows refer to one), and a payload shaped like the API's invoice object. */
export async function insertFinalInvoice(db: Db, merchantId: string, status: FinalInvoiceStatus = "complete") {
  const id = newId("inv");
  await db.insert(invoices).values({ id, status, payer: `merchant:${merchantId}`, priceUsdc: 0n, expiresAt: new Date(), merchantId, source: "merchant" });
  return {
    id,
    payload: { id, status, created_time: 1767225600, orders: [{ id: newId("ord"), status: "delivered", product: { id: "test-gift-card-code", value: "10" } }] },
  };
}

/** A final invoice and its message to `url`, enqueued as the invoice flow does (in a transaction, at `now`). */
export async function enqueueInvoiceMessage(db: Db, merchantId: string, url: string, now = new Date(), status: FinalInvoiceStatus = "complete") {
  const invoice = await insertFinalInvoice(db, merchantId, status);
  const event = { merchantId, invoiceId: invoice.id, url, eventType: invoiceEventType(status), payload: invoice.payload, eventAt: now };
  const { id } = await db.transaction((tx) => enqueueWebhook(tx, event, now));
  return { id, invoice };
}

export type ReceivedRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

/** What the receiver answers to its n-th request (0-based): a status and body, or "hang" (never answers). */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | "hang";

export type Receiver = {
  /** `http://127.0.0.1:<port>` and the given path. */
  url: (path?: string) => string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
};

/** A real HTTP receiver on 127.0.0.1 (a random port), recording every request and answering as `answer` says. */
export async function startReceiver(answer: (request: ReceivedRequest, index: number) => Answer = () => ({ status: 204 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() };
      const index = requests.length;
      requests.push(request);
      const a = answer(request, index);
      if (a === "hang") return;
      setTimeout(() => {
        res.writeHead(a.status, a.headers);
        res.end(a.body ?? "");
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/hooks") => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A webhook test file's database and receivers: the database opened before its tests and closed after them; after
 * each test its receivers are closed and its pending messages set aside (drains take every due message: none of one
 * test's may be left for the next). Call it at the top of the file.
 */
export function webhookTestBed(): { database: () => Database; receiver: (answer?: (request: ReceivedRequest, index: number) => Answer) => Promise<Receiver> } {
  let database: Database | undefined;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await database?.db.update(webhookDeliveries).set({ status: "failed", nextAttemptAt: null }).where(eq(webhookDeliveries.status, "pending"));
  });
  return {
    database: () => database!,
    receiver: async (answer) => {
      const r = await startReceiver(answer);
      receivers.push(r);
      return r;
    },
  };
}

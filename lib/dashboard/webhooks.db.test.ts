import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/platform/db";
import { webhookDeliveries } from "@/lib/platform/db/schema";
import { testDriver } from "@/test/db";
import { drainWebhooks, listWebhookEndpoints, ROTATION_OVERLAP_MS, type WebhookEndpoint } from "@/lib/webhooks";
import { enqueueInvoiceMessage, insertTestMerchant, webhookTestBed } from "@/test/webhooks";
import {
  defaultTestUrl,
  enableEndpointFromForm,
  listWebhookLog,
  parseWebhookLogQuery,
  redeliverFromForm,
  revealWebhookSecret,
  rotateWebhookSecretNow,
  sendTestFromForm,
  webhookLogParams,
} from "./webhooks";

const bed = webhookTestBed();
const receiver = bed.receiver;
let db: Db;
beforeAll(() => {
  db = bed.database().db;
});

const drain = (now: Date) => drainWebhooks(db, { mode: "devnet", retryBaseSeconds: 10, random: () => 0.5, now });
const devnet = { mode: "devnet" as const };

describe("the delivery log's query", () => {
  it("reads filters and a cursor, and drops what it does not understand", () => {
    expect(parseWebhookLogQuery({})).toEqual({ query: {}, ignored: [] });
    const { query, ignored } = parseWebhookLogQuery({
      status: "failed",
      event: ["invoice.complete", "test"],
      url: "  https://hooks.example.com/a?b=c  ",
      invoice: "inv_01ABC",
      cursor: "MjAyNi0wMS0wMVQwMDowMDowMC4wMDBafG1zZ18x",
    });
    expect(query).toEqual({
      status: "failed",
      event: "invoice.complete",
      url: "https://hooks.example.com/a?b=c",
      invoice: "inv_01ABC",
      cursor: "MjAyNi0wMS0wMVQwMDowMDowMC4wMDBafG1zZ18x",
    });
    expect(ignored).toEqual([]);
    expect(webhookLogParams(query).toString()).toBe(
      "status=failed&event=invoice.complete&url=https%3A%2F%2Fhooks.example.com%2Fa%3Fb%3Dc&invoice=inv_01ABC&cursor=MjAyNi0wMS0wMVQwMDowMDowMC4wMDBafG1zZ18x",
    );

    const bad = parseWebhookLogQuery({ status: "lost", event: "order.created", invoice: "inv 1; drop", cursor: "a+b/c", url: "" });
    expect(bad.query).toEqual({});
    expect(bad.ignored).toEqual(["status", "event", "invoice", "cursor"]);
    expect(parseWebhookLogQuery({ url: `https://x.example/${"a".repeat(2048)}` }).ignored).toEqual(["url"]);
    expect(webhookLogParams({}).toString()).toBe("");
  });
});

describe(`the delivery log on ${testDriver}`, () => {
  it("filters by status, event type, URL and invoice, pages by cursor, and restarts on a cursor it does not know", async () => {
    const m = await insertTestMerchant(db);
    const up = await receiver(() => ({ status: 200, body: "ok" }));
    const down = await receiver(() => ({ status: 500, body: "down" }));
    const t0 = new Date();
    const a = await enqueueInvoiceMessage(db, m.id, up.url(), t0);
    const b = await enqueueInvoiceMessage(db, m.id, down.url(), new Date(t0.getTime() + 1000), "denied");
    const c = await enqueueInvoiceMessage(db, m.id, up.url(), new Date(t0.getTime() + 2000));
    await drain(new Date(t0.getTime() + 3000));

    const ids = async (q: Parameters<typeof listWebhookLog>[2], limit?: number) => (await listWebhookLog(db, m.id, q, limit)).deliveries.map((d) => d.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ status: "pending" })).toEqual([b.id]);
    expect(await ids({ event: "invoice.denied" })).toEqual([b.id]);
    expect(await ids({ url: up.url() })).toEqual([c.id, a.id]);
    expect(await ids({ invoice: a.invoice.id })).toEqual([a.id]);
    expect(await ids({ event: "test" })).toEqual([]);

    const first = await listWebhookLog(db, m.id, {}, 2);
    expect(first.deliveries.map((d) => d.id)).toEqual([c.id, b.id]);
    const second = await listWebhookLog(db, m.id, { cursor: first.nextCursor! }, 2);
    expect(second).toMatchObject({ nextCursor: null, cursorRefused: false });
    expect(second.deliveries.map((d) => d.id)).toEqual([a.id]);

    const refused = await listWebhookLog(db, m.id, { cursor: "bm9uc2Vuc2U" }, 2);
    expect(refused.cursorRefused).toBe(true);
    expect(refused.deliveries.map((d) => d.id)).toEqual([c.id, b.id]);
  });
});

describe(`the Webhooks section's actions on ${testDriver}`, () => {
  it("redelivers a failed message with the same webhook-id and says what came back", async () => {
    const m = await insertTestMerchant(db);
    let status = 500;
    const r = await receiver(() => ({ status, body: status === 200 ? "thanks" : "broken" }));
    const { id } = await enqueueInvoiceMessage(db, m.id, r.url());
    await drain(new Date());

    const failing = await redeliverFromForm(db, m.id, { id }, devnet);
    expect(failing).toEqual({
      outcome: { attempt: 2, ok: false, statusCode: 500, responseExcerpt: "broken", error: null, durationMs: expect.any(Number), endpointDisabled: false },
    });
    status = 200;
    expect(await redeliverFromForm(db, m.id, { id }, devnet)).toMatchObject({ outcome: { attempt: 3, ok: true, statusCode: 200, responseExcerpt: "thanks" } });
    expect(r.requests.map((q) => q.headers["webhook-id"])).toEqual([id, id, id]);

    const other = await insertTestMerchant(db);
    expect(await redeliverFromForm(db, other.id, { id }, devnet)).toEqual({ error: "That is not a webhook message of yours." });
    expect(await redeliverFromForm(db, m.id, {}, devnet)).toEqual({ error: "That is not a webhook message of yours." });
    expect(await redeliverFromForm(db, m.id, { id: "x".repeat(65) }, devnet)).toEqual({ error: "That is not a webhook message of yours." });
  });

  it("sends a test event, and refuses a URL it cannot send to with a message, not an error", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 202, body: "got it" }));
    const sent = await sendTestFromForm(db, m.id, { url: `  ${r.url("/try")} ` }, devnet);
    expect(sent).toMatchObject({ url: r.url("/try"), outcome: { attempt: 1, ok: true, statusCode: 202, responseExcerpt: "got it", url: r.url("/try") } });
    expect(r.requests[0]!.headers["webhook-id"]).toBe(sent.outcome!.deliveryId);
    expect(new Webhook(m.secret).verify(r.requests[0]!.body, r.requests[0]!.headers as Record<string, string>)).toMatchObject({ type: "test" });

    expect(await sendTestFromForm(db, m.id, { url: "" }, devnet)).toEqual({ error: "Enter the URL to send the test event to.", url: "" });
    expect(await sendTestFromForm(db, m.id, {}, devnet)).toMatchObject({ error: "Enter the URL to send the test event to." });
    expect(await sendTestFromForm(db, m.id, { url: "not a url" }, devnet)).toEqual({ error: "The URL is not an absolute URL.", url: "not a url" });
    expect(await sendTestFromForm(db, m.id, { url: "ftp://hooks.example.com/" }, devnet)).toEqual({
      error: "The URL must be an http or https URL.",
      url: "ftp://hooks.example.com/",
    });
    expect(await sendTestFromForm(db, m.id, { url: "http://127.0.0.1/x" }, { mode: "mainnet" })).toMatchObject({
      error: expect.stringMatching(/^The URL must be an https URL/),
    });
    expect((await sendTestFromForm(db, m.id, { url: `https://x.example/${"a".repeat(2048)}` }, devnet)).error).toBe("Keep the URL under 2048 characters.");

    // A URL that cannot be reached is an attempt like any other: logged, with why.
    const unreachable = await sendTestFromForm(
      db,
      m.id,
      { url: "https://intranet.test/x" },
      { mode: "mainnet", resolve: async () => [{ address: "10.0.0.2", family: 4 }] },
    );
    expect(unreachable.outcome).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^blocked: /) });
  });

  it("re-enables an endpoint disabled by a 410 and releases its held messages", async () => {
    const m = await insertTestMerchant(db);
    const r = await receiver(() => ({ status: 410, body: "gone" }));
    const t0 = new Date();
    await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    await drain(t0);
    // A second message for the same URL, enqueued after the endpoint was disabled: held.
    const { id: held } = await enqueueInvoiceMessage(db, m.id, r.url(), t0);
    await drain(t0);
    expect(await listWebhookEndpoints(db, m.id)).toEqual([
      expect.objectContaining({ url: r.url(), disabledReason: "the endpoint answered 410 Gone", pendingDeliveries: 1 }),
    ]);

    expect(await enableEndpointFromForm(db, m.id, { url: "https://elsewhere.example/" })).toEqual({ error: "That is not a webhook endpoint of yours." });
    expect(await enableEndpointFromForm(db, (await insertTestMerchant(db)).id, { url: r.url() })).toEqual({
      error: "That is not a webhook endpoint of yours.",
    });
    expect(await enableEndpointFromForm(db, m.id, {})).toEqual({ error: "That is not a webhook endpoint of yours." });

    const later = new Date(t0.getTime() + 60_000);
    expect(await enableEndpointFromForm(db, m.id, { url: r.url() }, later)).toEqual({ released: 1 });
    expect(await listWebhookEndpoints(db, m.id)).toEqual([expect.objectContaining({ disabledAt: null, consecutiveFailures: 0 })]);
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, held));
    expect(row).toMatchObject({ status: "pending", nextAttemptAt: later });
  });

  it("reveals the signing secret, and rotates it with the previous one signing for the overlap", async () => {
    const m = await insertTestMerchant(db);
    const t0 = new Date();
    expect(await revealWebhookSecret(db, m.id, t0)).toEqual({ secret: m.secret, previous: null });
    const rotated = await rotateWebhookSecretNow(db, m.id, t0);
    expect(rotated).toEqual({
      secret: expect.stringMatching(/^whsec_/),
      previous: { secret: m.secret, until: new Date(t0.getTime() + ROTATION_OVERLAP_MS).toISOString() },
      rotated: true,
    });
    expect(rotated.secret).not.toBe(m.secret);
    expect(await revealWebhookSecret(db, m.id, t0)).toEqual({ secret: rotated.secret, previous: rotated.previous });
    expect(await revealWebhookSecret(db, m.id, new Date(t0.getTime() + ROTATION_OVERLAP_MS + 1))).toEqual({ secret: rotated.secret, previous: null });
  });
});

describe("the test event's default URL", () => {
  const endpoint = (url: string, updatedAt: number, disabled = false): WebhookEndpoint => ({
    url,
    consecutiveFailures: 0,
    disabledAt: disabled ? new Date(updatedAt) : null,
    disabledReason: disabled ? "gone" : null,
    updatedAt: new Date(updatedAt),
    pendingDeliveries: 0,
  });
  it("is the endpoint used last that still gets messages, else any", () => {
    expect(defaultTestUrl([])).toBeUndefined();
    expect(defaultTestUrl([endpoint("https://a.example/", 1), endpoint("https://b.example/", 3, true), endpoint("https://c.example/", 2)])).toBe(
      "https://c.example/",
    );
    expect(defaultTestUrl([endpoint("https://a.example/", 1, true), endpoint("https://b.example/", 2, true)])).toBe("https://b.example/");
  });
});

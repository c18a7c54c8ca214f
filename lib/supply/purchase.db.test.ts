import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { POST as webhookRoute } from "@/app/api/upstream/webhook/route";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as balanceRoute } from "@/app/api/v2/accounts/balance/route";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import type { Database } from "@/lib/platform/db";
import { orders, products, upstreamPurchases } from "@/lib/platform/db/schema";
import { getProduct } from "@/lib/catalog";
import { catalogChanged } from "@/lib/catalog/snapshot";
import { processTestDatabase, testDriver } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import { createMerchant } from "@/lib/merchants";
import { installInProcessPayments, offlineSolanaNetwork } from "@/test/payments";
import { UpstreamClient } from "./client";
import { createUpstreamProvider, type PurchaseOptions } from "./purchase";
import { syncUpstreamCatalog } from "./sync";
import { heldPurchases } from "./status";
import { upstreamHealth, upstreamProvider } from ".";
import { giftCardRow, startStandIn, startUpstreamShop, type FaultAnswer, type UpstreamShop } from "@/test/supply";

let upstream: UpstreamShop;
let database: Database;
let rich: { id: string; secret: string; merchantId: string; webhookSecret: string };
/** This shop's webhook route over HTTP, where the upstream sends its final invoices: what it answered. */
let receiver: { origin: string; answers: number[]; stop(): Promise<void> };
let openDoor = () => {};
const door = { promise: new Promise<void>((resolve) => (openDoor = resolve)), resolve: () => openDoor() };
let restorePayments: (() => void) | undefined;

// Two shops' databases open at once here: on a busy machine that takes longer than a hook's usual minute.
vi.setConfig({ hookTimeout: 180_000 });
// Started at once, beside this file's own database (each takes seconds to open).
const starting = startUpstreamShop();
starting.catch(() => undefined); // awaited (and its failure reported) in beforeAll
processTestDatabase((d) => (database = d));

beforeAll(async () => {
  upstream = await starting;
  await upstream.importProducts([
    giftCardRow("card-a"),
    giftCardRow("card-b-fail", ["10"]),
    giftCardRow("open-a", [], { range: { min: "5", max: "100", step: "0.5" } }),
  ]);
  rich = await upstream.newMerchant(1000);
  // The upstream's own webhooks wait at the door until a test opens it (the forged one goes straight in).
  receiver = await serve(async (req) => {
    if (req.headers.get("webhook-id") !== "msg_forged") await door.promise;
    return webhookRoute(req);
  });
  Object.assign(process.env, {
    UPSTREAM_API_URL: upstream.apiUrl,
    UPSTREAM_API_ID: rich.id,
    UPSTREAM_API_SECRET: rich.secret,
    UPSTREAM_WEBHOOK_SECRET: rich.webhookSecret,
    PUBLIC_ORIGIN: receiver.origin,
  });
  restorePayments = await installInProcessPayments([await offlineSolanaNetwork("Solana (offline)")]);
  const synced = await syncUpstreamCatalog(database.db, client(upstream.apiUrl), { syncMinutes: 60 });
  expect(synced).toMatchObject({ status: "complete", imported: 3 });
}, 180_000);

afterAll(async () => {
  for (const v of ["UPSTREAM_API_URL", "UPSTREAM_API_ID", "UPSTREAM_API_SECRET", "UPSTREAM_WEBHOOK_SECRET", "PUBLIC_ORIGIN"]) delete process.env[v];
  restorePayments?.();
  door.resolve();
  await receiver?.stop();
  await (await starting.catch(() => undefined))?.stop();
});

/** A route handler of this shop served over HTTP on a free port. */
async function serve(handler: (req: Request) => Promise<Response>) {
  const answers: number[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : []));
    const answer = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }));
    answers.push(answer.status);
    res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, answers, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function client(url: string, creds: { id: string; secret: string } = rich, timeoutMs?: number) {
  return new UpstreamClient({ url, auth: { kind: "basic", ...creds } }, { timeoutMs });
}

function provider(c: UpstreamClient, opts: Partial<PurchaseOptions> = {}) {
  return createUpstreamProvider(database.db, c, { holdMs: 60_000, pollMs: 10, ...opts });
}

/** A merchant of this shop, buying with its balance (auto_pay): the order is paid at once and due for fulfilment. */
async function buyer(creditUsd = 100) {
  const m = await createMerchant(database.db, { name: "Buyer", creditCents: BigInt(creditUsd * 100) });
  const headers = bearerAuth(m.api_token);
  return {
    async buy(productId: string, value: number) {
      const res = await callRoute(createRoute, "/api/v2/invoices", {
        headers,
        body: { products: [{ product_id: productId, value }], payment_method: "balance", auto_pay: true },
      });
      expect(res.status).toBe(200);
      const inv = res.body.data as { id: string; payment: { price: number }; orders: { id: string }[] };
      return { invoiceId: inv.id, orderId: inv.orders[0]!.id, price: inv.payment.price };
    },
    balance: async () => ((await callRoute(balanceRoute, "/api/v2/accounts/balance", { headers })).body.data as { balance: number }).balance,
  };
}

// The fulfilment's clock, an hour further at each drain: an order waiting on the upstream is due again at once.
let clock = Date.now();
const drain = (p: ReturnType<typeof provider>) => drainDue(database.db, { provider: p, now: new Date((clock += 3600_000)) });

async function order(orderId: string) {
  const [o] = await database.db.select().from(orders).where(eq(orders.id, orderId));
  return o!;
}

async function purchase(orderId: string) {
  const [p] = await database.db.select().from(upstreamPurchases).where(eq(upstreamPurchases.orderId, orderId));
  return p!;
}

/**
 * The upstream's invoice `id` once final, as its webhook worker sends it: signed with the account's secret, POSTed to
 * this shop's webhook route (`as` names another invoice in it). Answers the route's response.
 */
async function sendFinalInvoice(id: string, as = id) {
  const auth = { Authorization: `Basic ${Buffer.from(`${rich.id}:${rich.secret}`).toString("base64")}` };
  let body = "";
  for (let i = 0; i < 100; i++) {
    const read = (await (await fetch(`${upstream.apiUrl}/invoices/${id}`, { headers: auth })).json()) as { data: { status: string } };
    body = JSON.stringify(read.data).replaceAll(id, as);
    if (read.data.status === "complete") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const messageId = `msg_final_${receiver.answers.length}`;
  const at = new Date();
  const headers = {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(rich.webhookSecret).sign(messageId, at, body),
  };
  return fetch(`${receiver.origin}/api/upstream/webhook`, { method: "POST", headers, body });
}

/** Drains until the order is final (the upstream delivers within a few of its 100 ms rounds). */
async function untilFinal(orderId: string, p: ReturnType<typeof provider>) {
  for (let i = 0; i < 60; i++) {
    await drain(p);
    const o = await order(orderId);
    if (o.status !== "processing" && o.status !== "created") return o;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`order ${orderId} did not finish`);
}

/** The upstream's view of the merchant: its invoices (newest first) and its balance. */
async function upstreamAccount(creds: { id: string; secret: string } = rich) {
  const auth = { Authorization: `Basic ${Buffer.from(`${creds.id}:${creds.secret}`).toString("base64")}` };
  const invoices = (await (await fetch(`${upstream.apiUrl}/invoices?limit=50`, { headers: auth })).json()) as {
    data: { id: string; status: string; status_reason?: string; payment: { method: string; price: number } }[];
  };
  const balance = (await (await fetch(`${upstream.apiUrl}/accounts/balance`, { headers: auth })).json()) as { data: { balance: number } };
  return { invoices: invoices.data, balance: balance.data.balance };
}

describe(`buying upstream on ${testDriver}`, () => {
  it("turns a paid order into one upstream invoice paid from the balance, keyed by the order's id, and gives the buyer its code", async () => {
    const before = await upstreamAccount();
    const b = await buyer();
    const bought = await b.buy("card-a", 25);
    // Cost 25.00, margin 5 %.
    expect(bought.price).toBe(2625);
    const p = provider(client(upstream.apiUrl));
    const done = await untilFinal(bought.orderId, p);
    expect(done).toMatchObject({ status: "delivered", errorCode: null });
    const row = await purchase(bought.orderId);
    expect(row).toMatchObject({ status: "delivered", attempt: 0, costCents: 2500n });

    const after = await upstreamAccount();
    expect(after.invoices).toHaveLength(before.invoices.length + 1);
    expect(after.invoices[0]).toMatchObject({ id: row.upstreamInvoiceId, status: "complete", payment: { method: "balance", price: 2500 } });
    expect(after.balance).toBe(before.balance - 2500);
    // The upstream's own code, as the upstream shows it.
    const theirs = await client(upstream.apiUrl).order(row.upstreamOrderId!);
    expect((done.redemption as { code?: string }).code).toBe(theirs.redemption_info?.code);
    expect((done.redemption as { code?: string }).code).toMatch(/\w{4,}/);
    // The key is the order's id: asking again with it makes nothing new.
    const again = await client(upstream.apiUrl).createInvoice(
      { products: [{ product_id: "card-a", value: "25", quantity: 1 }], payment_method: "balance", auto_pay: true },
      bought.orderId,
    );
    expect(again.id).toBe(row.upstreamInvoiceId);
    expect((await upstreamAccount()).balance).toBe(after.balance);
  });

  it("buys once when the fulfilment runs twice: the first request timed out after the upstream made the invoice", async () => {
    const standIn = await startStandIn(upstream.origin, (r) => (r.method === "POST" && r.n === 0 ? { forwardAfterMs: 1_500 } : "forward"));
    try {
      const before = await upstreamAccount();
      const b = await buyer();
      const bought = await b.buy("card-a", 10);
      const p = provider(client(`${standIn.origin}/api/v2`, rich, 500));
      await drain(p);
      expect(await order(bought.orderId)).toMatchObject({ status: "processing", lastError: expect.stringMatching(/did not answer/) });
      expect(await purchase(bought.orderId)).toMatchObject({ upstreamInvoiceId: null });
      const done = await untilFinal(bought.orderId, p);
      expect(done.status).toBe("delivered");
      expect(standIn.seen.filter((s) => s.method === "POST")).toHaveLength(2);
      // Both times the same body under the same key, as stored before the first was sent.
      expect(JSON.parse((await purchase(bought.orderId)).request!)).toEqual({
        products: [{ product_id: "card-a", value: "10", quantity: 1 }],
        payment_method: "balance",
        auto_pay: true,
      });
      const after = await upstreamAccount();
      expect(after.invoices).toHaveLength(before.invoices.length + 1);
      expect(after.balance).toBe(before.balance - 1000);
    } finally {
      await standIn.stop();
    }
  });

  it("fails the shop's order when the upstream's order fails, and the buyer is refunded", async () => {
    const b = await buyer(50);
    const bought = await b.buy("card-b-fail", 10);
    expect(await b.balance()).toBe(5000 - bought.price);
    const done = await untilFinal(bought.orderId, provider(client(upstream.apiUrl)));
    expect(done).toMatchObject({ status: "refunded", errorCode: "UPSTREAM_FAILED" });
    expect(await b.balance()).toBe(5000);
  });

  it("rides out a 500 and a 429 with Retry-After without failing the order or buying twice", async () => {
    const faults: FaultAnswer[] = [
      { status: 500, body: { meta: { _endpoint: "/invoices" }, error_code: "create_invoice_failed", message: "Internal error" } },
      { status: 429, headers: { "Retry-After": "3" }, body: { meta: { _endpoint: "/invoices" }, error_code: "rate_limited", message: "Slow down" } },
    ];
    const standIn = await startStandIn(upstream.origin, (r) => (r.method === "POST" ? (faults.shift() ?? "forward") : "forward"));
    try {
      const before = await upstreamAccount();
      const b = await buyer();
      const bought = await b.buy("card-a", 10);
      const p = provider(client(`${standIn.origin}/api/v2`));
      await drain(p);
      expect(await order(bought.orderId)).toMatchObject({ status: "processing", lastError: expect.stringMatching(/500/) });
      const at = clock;
      await drain(p);
      const limited = await order(bought.orderId);
      expect(limited).toMatchObject({ status: "processing", lastError: expect.stringMatching(/rate limited/) });
      // Not asked again before the upstream's Retry-After.
      expect(limited.runAt!.getTime()).toBeGreaterThanOrEqual(at + 2_000);
      expect((await untilFinal(bought.orderId, p)).status).toBe("delivered");
      const after = await upstreamAccount();
      expect(after.invoices).toHaveLength(before.invoices.length + 1);
      expect(after.balance).toBe(before.balance - 1000);
    } finally {
      await standIn.stop();
    }
  });

  it("holds an order while the upstream balance is too low, and buys it under a new key once topped up", async () => {
    const poor = await upstream.newMerchant(0);
    const b = await buyer();
    const bought = await b.buy("card-a", 10);
    const p = provider(client(upstream.apiUrl, poor));
    await drain(p);
    expect(await order(bought.orderId)).toMatchObject({ status: "processing", lastError: expect.stringMatching(/balance/) });
    expect(await purchase(bought.orderId)).toMatchObject({ status: "held", attempt: 1, heldSince: expect.any(Date) });
    // Still too low: still held, with the same start.
    await drain(p);
    const held = await purchase(bought.orderId);
    expect(held).toMatchObject({ status: "held", attempt: 2 });
    // The operator sees it (GET /api/health?ready=1): the held order, and the balance of the configured upstream account.
    const health = await upstreamHealth(database.db);
    expect(health).toMatchObject({ origin: upstream.origin, held_orders: 1, balance_cents: (await upstreamAccount()).balance, sync: { in_progress: false } });
    expect(JSON.stringify(health)).not.toContain(rich.secret);

    expect((await upstream.admin("POST", `/api/admin/merchants/${poor.merchantId}/credit`, { amount_usd: 20 })).status).toBe(200);
    expect((await untilFinal(bought.orderId, p)).status).toBe("delivered");
    const account = await upstreamAccount(poor);
    expect(account.invoices.map((i) => [i.status, i.status_reason ?? null])).toEqual([
      ["complete", null],
      ["denied", "balance_too_low"],
      ["denied", "balance_too_low"],
    ]);
    expect(account.balance).toBe(1000);
  });

  it("fails and refunds an order held longer than the hold allows", async () => {
    const poor = await upstream.newMerchant(0);
    const b = await buyer(50);
    const bought = await b.buy("card-a", 10);
    const p = provider(client(upstream.apiUrl, poor), { holdMs: 300 });
    await drain(p);
    expect(await purchase(bought.orderId)).toMatchObject({ status: "held" });
    // The operator's page lists it, with when it is refunded unless the balance is topped up.
    const [held] = await heldPurchases(database.db, 5);
    expect(held).toMatchObject({ orderId: bought.orderId, lastError: expect.stringContaining("balance") });
    expect(held!.refundAt.getTime() - held!.heldSince.getTime()).toBe(5 * 60_000);
    await new Promise((r) => setTimeout(r, 350));
    const done = await untilFinal(bought.orderId, p);
    expect(done).toMatchObject({ status: "refunded", errorCode: "UPSTREAM_BALANCE_TOO_LOW" });
    expect(await b.balance()).toBe(5000);
  });

  it("reprices a package at once when a purchase shows its upstream cost moved, before the next sync", async () => {
    await upstream.importProducts([giftCardRow("card-a", [], { packages: [{ value: "10", faceValue: "11" }, { value: "25" }] })]);
    const b = await buyer();
    const bought = await b.buy("card-a", 10);
    expect(bought.price).toBe(1050);
    expect((await untilFinal(bought.orderId, provider(client(upstream.apiUrl)))).status).toBe("delivered");
    expect(await purchase(bought.orderId)).toMatchObject({ costCents: 1100n });
    expect((await b.buy("card-a", 10)).price).toBe(1155);
    await drain(provider(client(upstream.apiUrl)));
  });

  it("buys an amount of an open range by its value, and raises the range's cost rate when the upstream charged more", async () => {
    // As if the upstream's rate had risen since the sync: this shop's rate says 37.50 costs 30.00 (the price, 37.50,
    // is then its face value's).
    await database.db.update(products).set({ rangeCostRate: "0.8", updatedAt: new Date() }).where(eq(products.id, "open-a"));
    catalogChanged(database.db);
    const b = await buyer();
    const bought = await b.buy("open-a", 37.5);
    expect(bought.price).toBe(3750);
    expect((await untilFinal(bought.orderId, provider(client(upstream.apiUrl)))).status).toBe("delivered");
    expect(await purchase(bought.orderId)).toMatchObject({ costCents: 3750n, status: "delivered" });
    // The upstream charged 37.50 for 37.50: rate 1, and the next invoice is priced over it (39.375 with the 5 % margin).
    const open = await getProduct("open-a", database.db);
    expect(open?.range?.costRate).toBe("1");
    expect((await b.buy("open-a", 37.5)).price).toBe(3938);
  });

  it("makes an order due at once on the upstream's signed webhook, and a webhook with a bad signature changes nothing", async () => {
    const b = await buyer();
    const bought = await b.buy("card-a", 25);
    // Polling far apart: only the webhook can bring the order back before its next poll.
    const p = provider(client(upstream.apiUrl), { pollMs: 600_000, webhookUrl: `${receiver.origin}/api/upstream/webhook` });
    await drain(p);
    const waiting = await order(bought.orderId);
    expect(waiting.status).toBe("processing");
    const upstreamInvoiceId = (await purchase(bought.orderId)).upstreamInvoiceId!;

    // Forged: refused, and the order stays where it was.
    const forged = await fetch(`${receiver.origin}/api/upstream/webhook`, {
      method: "POST",
      headers: { "webhook-id": "msg_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,Zm9yZ2Vk" },
      body: JSON.stringify({ id: upstreamInvoiceId, status: "complete" }),
    });
    expect(forged.status).toBe(401);
    expect((await order(bought.orderId)).runAt).toEqual(waiting.runAt);
    door.resolve();

    // The upstream's own, signed with the account's secret: the order is due now and delivered by a drain at the real time.
    // Waited for by the order itself: the webhooks of earlier tests, held at the same door, may be answered first.
    let due = false;
    for (let i = 0; i < 50 && !due; i++) {
      due = (await order(bought.orderId)).runAt!.getTime() <= Date.now();
      if (!due) await new Promise((r) => setTimeout(r, 100));
    }
    expect(due).toBe(true);
    expect(receiver.answers).toContain(204);
    await drainDue(database.db, { provider: p, now: new Date() });
    expect(await order(bought.orderId)).toMatchObject({ status: "delivered" });
  });

  it("answers a webhook for an invoice it has not recorded 503 while a purchase waits for its answer, and asks again at once", async () => {
    const b = await buyer();
    const bought = await b.buy("card-a", 10);
    // The purchase was asked (its body kept, then sent under the order's key) and its answer never heard: a crash.
    const request = JSON.stringify({
      products: [{ product_id: "card-a", value: "10", quantity: 1 }],
      payment_method: "balance",
      auto_pay: true,
      webhook_url: `${receiver.origin}/api/upstream/webhook`,
    });
    const later = new Date(Date.now() + 3600_000);
    await database.db.insert(upstreamPurchases).values({ orderId: bought.orderId, asks: 1, request });
    await database.db.update(orders).set({ status: "processing", runAt: later }).where(eq(orders.id, bought.orderId));
    const bid = await client(upstream.apiUrl).createInvoice(request, bought.orderId);

    const send = (invoiceId = bid.id) => sendFinalInvoice(bid.id, invoiceId);

    // Not recorded yet: 503 (the upstream sends it again), and the order is due now, to ask again under the same key.
    const early = await send();
    expect(early.status).toBe(503);
    expect(await early.json()).toMatchObject({ error_code: "not_ready" });
    expect((await order(bought.orderId)).runAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await untilFinal(bought.orderId, provider(client(upstream.apiUrl)))).status).toBe("delivered");
    // The same invoice, never a second one; the webhook again is taken (its order is final: nothing more to do).
    expect(await purchase(bought.orderId)).toMatchObject({ upstreamInvoiceId: bid.id, status: "delivered" });
    expect((await send()).status).toBe(204);

    // An invoice no purchase will ever name (a held purchase's refused one, or one asked long ago) is not wanted again.
    const other = await b.buy("card-a", 10);
    await database.db.insert(upstreamPurchases).values({ orderId: other.orderId, asks: 1, request, status: "held" });
    expect((await send("inv_never_recorded_here")).status).toBe(204);
    await database.db
      .update(upstreamPurchases)
      .set({ status: "buying", updatedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(upstreamPurchases.orderId, other.orderId));
    expect((await send("inv_never_recorded_here")).status).toBe(204);
    await database.db.update(upstreamPurchases).set({ updatedAt: new Date() }).where(eq(upstreamPurchases.orderId, other.orderId));
    expect((await send("inv_never_recorded_here")).status).toBe(503);
    await drain(provider(client(upstream.apiUrl)));
  });

  it("keeps an order due that the upstream's webhook made due while its attempt ran, though the attempt read no news", async () => {
    door.resolve();
    const b = await buyer();
    const bought = await b.buy("card-a", 10);
    // The attempt's read of the upstream invoice is taken before the upstream finishes; the webhook saying it is
    // final comes in before the attempt records its outcome (a wait of minutes: the polls are slow).
    let meanwhile: ((id: string) => Promise<void>) | undefined;
    class LateNews extends UpstreamClient {
      override async invoice(id: string) {
        const read = await super.invoice(id);
        if (!meanwhile) return read;
        await meanwhile(id);
        return { ...read, status: "processing" as const };
      }
    }
    const p = provider(new LateNews({ url: upstream.apiUrl, auth: { kind: "basic", ...rich } }), {
      pollMs: 600_000,
      webhookUrl: `${receiver.origin}/api/upstream/webhook`,
    });
    await drainDue(database.db, { provider: p, now: new Date() });
    expect(await order(bought.orderId)).toMatchObject({ status: "processing" });
    expect((await order(bought.orderId)).runAt!.getTime()).toBeGreaterThan(Date.now() + 60_000);

    // Due again (as at its next poll); while this attempt reads, the webhook comes and is taken.
    await database.db.update(orders).set({ runAt: new Date() }).where(eq(orders.id, bought.orderId));
    meanwhile = async (id) => expect((await sendFinalInvoice(id)).status).toBe(204);
    await drainDue(database.db, { provider: p, now: new Date() });
    // The attempt's own outcome said "ask again in minutes"; the webhook's news keeps the order due now.
    expect((await order(bought.orderId)).runAt!.getTime()).toBeLessThanOrEqual(Date.now());
    meanwhile = undefined;
    await drainDue(database.db, { provider: p, now: new Date() });
    expect(await order(bought.orderId)).toMatchObject({ status: "delivered" });
  });

  it("delivers through the supplier the fulfilment is passed: lib/supply's upstreamProvider, from UPSTREAM_API_URL, as the server's worker and round pass it", async () => {
    const b = await buyer();
    const bought = await b.buy("card-a", 10);
    // A drain passed no upstream provider (a test's own) fails nothing: the order waits, as after any transient failure.
    await drainDue(database.db, { now: new Date((clock += 3600_000)) });
    expect(await order(bought.orderId)).toMatchObject({ status: "processing", lastError: expect.stringMatching(/no upstream provider/) });
    let done = await order(bought.orderId);
    for (let i = 0; i < 60 && (done.status === "processing" || done.status === "created"); i++) {
      await drainDue(database.db, { upstream: upstreamProvider, now: new Date((clock += 3600_000)) });
      done = await order(bought.orderId);
      if (done.status === "processing") await new Promise((r) => setTimeout(r, 100));
    }
    expect(done).toMatchObject({ status: "delivered", errorCode: null });
    const row = await purchase(bought.orderId);
    expect(row).toMatchObject({ status: "delivered", attempt: 0 });
    // Bought with the configured account, naming this shop's webhook route (UPSTREAM_WEBHOOK_SECRET, PUBLIC_ORIGIN).
    expect(JSON.parse(row.request!)).toMatchObject({ webhook_url: `${receiver.origin}/api/upstream/webhook` });
    const theirs = await client(upstream.apiUrl).order(row.upstreamOrderId!);
    expect((done.redemption as { code?: string }).code).toBe(theirs.redemption_info?.code);
  });
});

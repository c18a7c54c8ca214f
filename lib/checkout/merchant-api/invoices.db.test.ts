import { describe, expect, it } from "vitest";
import { GET as balanceRoute } from "@/app/api/v2/accounts/balance/route";
import { GET as getEsim } from "@/app/api/v2/esims/[id]/route";
import { POST as payEsimInvoice } from "@/app/api/v2/esims/invoice/[id]/pay/route";
import { GET as getEsimInvoice } from "@/app/api/v2/esims/invoice/[id]/route";
import { GET as listEsims, POST as createEsimInvoice } from "@/app/api/v2/esims/route";
import { POST as payRoute } from "@/app/api/v2/invoices/[id]/pay/route";
import { GET as getInvoiceRoute } from "@/app/api/v2/invoices/[id]/route";
import { GET as listInvoices, POST as createRoute } from "@/app/api/v2/invoices/route";
import { GET as getOrderRoute } from "@/app/api/v2/orders/[id]/route";
import { GET as listOrders } from "@/app/api/v2/orders/route";
import { callRoute, bearerAuth } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { idempotencyKeys } from "@/lib/platform/db/schema";
import { createMerchant, listLedger } from "@/lib/merchants";
import { createMerchantInvoice, parseInvoiceRequest } from "@/lib/checkout/merchant-api/create";
import { invoiceJson } from "@/lib/checkout/merchant-api/handlers";
import { idempotent } from "@/lib/api/merchant/idempotency";
import { getMerchantInvoice } from "@/lib/checkout/merchant-invoices";
import { payFromBalance } from "@/lib/checkout/pay-from-balance";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

type Invoice = {
  id: string;
  status: string;
  payment: { method: string; price: number; status: string; currency: string };
  orders: { id: string; status: string; price: number; refund?: { amount: number } }[];
};

async function merchant(creditUsd = 100) {
  const m = await createMerchant(database.db, { name: "Flow", creditCents: BigInt(creditUsd * 100) });
  const headers = bearerAuth(m.api_token);
  return {
    ...m,
    headers,
    create: (body: unknown, extra: Record<string, string> = {}) => callRoute(createRoute, "/api/v2/invoices", { headers: { ...headers, ...extra }, body }),
    invoice: async (id: string) => (await callRoute(getInvoiceRoute, `/api/v2/invoices/${id}`, { headers, params: { id } })).body.data as Invoice,
    balance: async () => ((await callRoute(balanceRoute, "/api/v2/accounts/balance", { headers })).body.data as { balance: number }).balance,
  };
}

const fulfil = () => drainDue(database.db);

describe(`merchant invoices on ${testDriver}`, () => {
  it("buys test-gift-card-code from the balance to a delivered code, as an existing client does", async () => {
    const m = await merchant(100);
    const created = await m.create({ products: [{ product_id: "test-gift-card-code", value: 10, quantity: 2 }], payment_method: "balance", auto_pay: true });
    expect(created.status).toBe(200);
    const inv = created.body.data as Invoice;
    expect(inv).toMatchObject({ status: "processing", payment: { method: "balance", price: 2000, currency: "USD", status: "payment_confirmed" } });
    expect(inv.orders).toHaveLength(2);
    expect(await m.balance()).toBe(8000);

    await fulfil();
    const done = await m.invoice(inv.id);
    expect(done).toMatchObject({ status: "complete", payment: { status: "paid" } });
    expect(done.orders.map((o) => o.status)).toEqual(["delivered", "delivered"]);
    const order = await callRoute(getOrderRoute, `/api/v2/orders/${done.orders[0]!.id}`, { headers: m.headers, params: { id: done.orders[0]!.id } });
    expect(order.body.data).toMatchObject({
      id: done.orders[0]!.id,
      status: "delivered",
      invoice: { id: inv.id },
      redemption_info: { code: expect.stringMatching(/^[A-Z0-9-]{8,}$/), extra_fields: {} },
    });
    // The list view does not carry codes.
    const list = await callRoute(listOrders, "/api/v2/orders?limit=1", { headers: m.headers });
    expect(list.body.data as unknown[]).toHaveLength(1);
    expect(JSON.stringify(list.body.data)).not.toContain("redemption_info");
    expect((list.body.meta as { _next?: string })._next).toMatch(/\/api\/v2\/orders\?limit=1&start=1$/);
  });

  it("refunds a failed order of a balance-paid invoice to the balance, and the invoice still completes", async () => {
    const m = await merchant(50);
    const created = await m.create({
      products: [
        { product_id: "test-gift-card-code-fail", value: 10 },
        { product_id: "test-gift-card-code", value: 10 },
      ],
      payment_method: "balance",
      auto_pay: true,
    });
    const id = (created.body.data as Invoice).id;
    expect(await m.balance()).toBe(3000);
    await fulfil();
    const done = await m.invoice(id);
    expect(done.status).toBe("complete");
    const failed = done.orders[0]!;
    expect(failed).toMatchObject({ status: "refunded", refund: { amount: 1000 } });
    expect(done.orders[1]!.status).toBe("delivered");
    expect(await m.balance()).toBe(4000);
    const ledger = await listLedger(database.db, m.merchant_id, { limit: 10 });
    expect(ledger.map((e) => [e.kind, Number(e.amountCents)])).toEqual([
      ["refund", 1000],
      ["debit", 2000],
      ["credit", 5000],
    ]);
  });

  it("never overdraws: 50 auto-paid invoices at once against a balance for 20", async () => {
    const m = await merchant(200);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(30);
    for (const r of refused)
      expect(r.body).toMatchObject({ error_code: "balance_too_low", required: 1000, available: 0, invoice_id: expect.stringMatching(/^inv_/) });
    expect(await m.balance()).toBe(0);
    expect((await listLedger(database.db, m.merchant_id, { limit: 100 })).filter((e) => e.kind === "debit")).toHaveLength(20);
    // A refused auto_pay keeps no payable invoice behind: it ends denied, with the reason.
    expect(await m.invoice(refused[0]!.body.invoice_id as string)).toMatchObject({
      status: "denied",
      status_reason: "balance_too_low",
      payment: { status: "denied" },
    });
  });

  it("creates unpaid, then pays with POST /invoices/{id}/pay; refuses what cannot be paid", async () => {
    const m = await merchant(15);
    const created = await m.create({ products: [{ product_id: "test-gift-card-code", package_id: "test-gift-card-code<&>10" }], payment_method: "balance" });
    const inv = created.body.data as Invoice;
    expect(inv).toMatchObject({ status: "unpaid", payment: { status: "unpaid", price: 1000 } });
    const paid = await callRoute(payRoute, `/api/v2/invoices/${inv.id}/pay`, { method: "POST", headers: m.headers, params: { id: inv.id } });
    expect(paid).toMatchObject({ status: 200, body: { data: { status: "processing" } } });
    expect((await callRoute(payRoute, `/api/v2/invoices/${inv.id}/pay`, { method: "POST", headers: m.headers, params: { id: inv.id } })).body).toMatchObject({
      error_code: "invoice_not_payable",
    });

    const big = await m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance" });
    const bigId = (big.body.data as Invoice).id;
    const low = await callRoute(payRoute, `/api/v2/invoices/${bigId}/pay`, { method: "POST", headers: m.headers, params: { id: bigId } });
    expect(low).toMatchObject({ status: 402, body: { error_code: "balance_too_low", required: 1000, available: 500 } });
    expect(low.body.message).toBe("Balance too low: this invoice needs 10.00 USD and the balance is 5.00 USD.");

    const other = await merchant(100);
    expect((await callRoute(getInvoiceRoute, `/api/v2/invoices/${inv.id}`, { headers: other.headers, params: { id: inv.id } })).status).toBe(404);
    expect((await callRoute(payRoute, `/api/v2/invoices/${bigId}/pay`, { method: "POST", headers: other.headers, params: { id: bigId } })).status).toBe(404);
  });

  it("answers every creation error with its code and status", async () => {
    const m = await merchant(100);
    const cases: [unknown, number, string][] = [
      ["{oops", 400, "parse_error"],
      [[], 400, "parse_error"],
      [{ payment_method: "balance" }, 400, "missing_param"],
      [{ products: "steam", payment_method: "balance" }, 400, "invalid_param"],
      [{ products: [{ value: 10 }], payment_method: "balance" }, 400, "missing_param"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10 }] }, 400, "missing_param"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "bitcoin" }, 400, "unsupported_payment_method"],
      [{ products: [{ product_id: "no-such-product", value: 10 }], payment_method: "balance" }, 404, "not_found"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10, quantity: 0 }], payment_method: "balance" }, 400, "invalid_quantity"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10, quantity: 1.5 }], payment_method: "balance" }, 400, "invalid_quantity"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10, quantity: 21 }], payment_method: "balance" }, 400, "too_many_items"],
      [{ products: Array.from({ length: 21 }, () => ({ product_id: "test-gift-card-code", value: 10 })), payment_method: "balance" }, 400, "too_many_items"],
      [{ products: [{ product_id: "test-gift-card-code", value: 13 }], payment_method: "balance" }, 400, "invalid_package_id"],
      [{ products: [{ product_id: "test-gift-card-code", package_id: "steam-us<&>10" }], payment_method: "balance" }, 400, "invalid_package_id"],
      [{ products: [{ product_id: "test-phone-refill", value: 10 }], payment_method: "balance" }, 400, "missing_param"],
      [{ products: [{ product_id: "test-phone-refill", value: 10, phone_number: "12" }], payment_method: "balance" }, 400, "invalid_phone_number"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", webhook_url: "ftp://x" }, 400, "invalid_param"],
      [{ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: "yes" }, 400, "invalid_param"],
      [
        { products: [{ product_id: "test-esim-product", value: "1GB, 7 Days", esim_id: "8944500000000000006" }], payment_method: "balance" },
        400,
        "invalid_param",
      ],
    ];
    for (const [body, status, code] of cases) {
      const res = await m.create(body);
      expect([res.status, res.body.error_code], JSON.stringify(body).slice(0, 120)).toEqual([status, code]);
      expect(res.body.meta).toEqual({ _endpoint: "/invoices" });
      expect(typeof res.body.message).toBe("string");
    }
    // Refusals name the request's own fields, counted as the client sent them (quantities are not items).
    const named: [unknown, string, string][] = [
      [
        {
          products: [
            { product_id: "test-gift-card-code", value: 10, quantity: 3 },
            { product_id: "test-gift-card-code", value: 13 },
          ],
          payment_method: "balance",
        },
        "invalid_package_id",
        "products[1].value",
      ],
      [
        { products: [{ product_id: "test-phone-refill", value: 10 }], payment_method: "balance" },
        "missing_param",
        "Missing required parameter: products[0].phone_number",
      ],
      [
        { products: [{ product_id: "test-phone-refill", value: 10, phone_number: "+442071838750" }], payment_method: "balance" },
        "unsupported_operator",
        "products[0].phone_number",
      ],
      [{ products: [{ product_id: "doordash-us", value: 25 }], payment_method: "balance" }, "missing_param", "Missing required parameter: products[0].email"],
      [{ products: [{ product_id: "doordash-us", value: 25, email: "not-an-address" }], payment_method: "balance" }, "invalid_param", "products[0].email"],
      [
        { products: [{ product_id: "test-esim-product", value: "1GB, 7 Days", esim_id: "12345" }], payment_method: "balance" },
        "invalid_param",
        "products[0].esim_id",
      ],
    ];
    for (const [body, code, field] of named) {
      const res = await m.create(body);
      expect([res.status, res.body.error_code], JSON.stringify(body).slice(0, 120)).toEqual([400, code]);
      expect(res.body.message).toContain(field);
      expect(res.body.message).not.toMatch(/items\.|refill_input|package_value/);
    }
    // An e-mail product is bought with its recipient.
    expect((await m.create({ products: [{ product_id: "doordash-us", value: 25, email: "friend@example.com" }], payment_method: "balance" })).status).toBe(200);
    // A range product takes a value inside its range only.
    const ranged = await m.create({ products: [{ product_id: "amazon-us", value: 5000 }], payment_method: "balance" });
    expect([ranged.status, ranged.body.error_code]).toEqual([400, "invalid_value"]);
    // However the value is written: one code, the spec's for a value outside the allowed range. A package_id that names
    // no package is invalid_package_id.
    for (const value of [-5, "-5", "abc", 999999, "10.001"]) {
      const res = await m.create({ products: [{ product_id: "amazon-us", value }], payment_method: "balance" });
      expect([res.status, res.body.error_code, res.body.message], String(value)).toEqual([400, "invalid_value", expect.stringContaining("products[0].value")]);
    }
    const noSuchId = await m.create({ products: [{ product_id: "amazon-us", package_id: "amazon-us<&>999999" }], payment_method: "balance" });
    expect([noSuchId.status, noSuchId.body.error_code]).toEqual([400, "invalid_package_id"]);
    // Nothing of the refused requests was charged (the accepted one was not paid).
    expect(await m.balance()).toBe(10_000);
  });

  it("takes a balance invoice over 1000 USD (the bound is one USDC payment's), and refuses that sum in USDC", async () => {
    const m = await merchant(5_000);
    const products = Array.from({ length: 20 }, () => ({ product_id: "amazon-us", value: 100 }));
    const fromBalance = await m.create({ products, payment_method: "balance" });
    expect(fromBalance.status).toBe(200);
    expect((fromBalance.body.data as Invoice).payment.price).toBeGreaterThan(100_000);
    const inUsdc = await m.create({ products, payment_method: "usdc_base" });
    expect([inUsdc.status, inUsdc.body.error_code]).toEqual([400, "unsupported_payment_method"]);
    expect(inUsdc.body.message).toMatch(/1000 USDC/);
    // A gift card's rest is paid from the balance too: no bound (this code is no card, which is what it is told).
    const byCard = await m.create({ products, payment_method: "gift_card", gift_card_code: "0000-0000-0000-0000-0000" });
    expect([byCard.status, byCard.body.error_code]).toEqual([400, "invalid_param"]);
    expect(byCard.body.message).not.toMatch(/1000 USDC/);
  });

  it("answers the eSIM invoice routes only for invoices that hold an eSIM: another is not found there, nor paid", async () => {
    const m = await merchant(100);
    const created = await m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance" });
    const id = (created.body.data as Invoice).id;
    const seen = await callRoute(getEsimInvoice, `/api/v2/esims/invoice/${id}`, { headers: m.headers, params: { id } });
    expect([seen.status, seen.body.error_code]).toEqual([404, "not_found"]);
    const paid = await callRoute(payEsimInvoice, `/api/v2/esims/invoice/${id}/pay`, { headers: m.headers, params: { id }, method: "POST" });
    expect([paid.status, paid.body.error_code]).toEqual([404, "not_found"]);
    expect((await m.invoice(id)).payment.status).not.toBe("paid");
    expect(await m.balance()).toBe(10_000);
    // The invoice routes answer it.
    expect((await callRoute(payRoute, `/api/v2/invoices/${id}/pay`, { headers: m.headers, params: { id }, method: "POST" })).status).toBe(200);
  });

  it("replays the first answer for a repeated Idempotency-Key, and refuses the key for another body", async () => {
    const m = await merchant(100);
    const body = { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true };
    const first = await m.create(body, { "Idempotency-Key": "order-42" });
    const again = await m.create(body, { "Idempotency-Key": "order-42" });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((again.body.data as Invoice).id).toBe((first.body.data as Invoice).id);
    expect(await m.balance()).toBe(9000);
    const reused = await m.create({ ...body, auto_pay: false }, { "Idempotency-Key": "order-42" });
    expect([reused.status, reused.body.error_code]).toEqual([422, "idempotency_key_reused"]);
    // A first request that died unanswered does not lock its key for good.
    await database.db
      .insert(idempotencyKeys)
      .values({ merchantId: m.merchant_id, key: "crashed-1", endpoint: "POST /invoices", requestHash: "x", createdAt: new Date(Date.now() - 10 * 60_000) });
    expect((await m.create(body, { "Idempotency-Key": "crashed-1" })).status).toBe(200);
    // Another merchant may use the same key.
    const other = await merchant(100);
    expect((await other.create(body, { "Idempotency-Key": "order-42" })).headers.get("idempotent-replayed")).toBeNull();
    // A refusal is replayed too (it was an answer), so a retried bad request stays refused.
    const bad = { products: [{ product_id: "nope", value: 1 }], payment_method: "balance" };
    expect((await m.create(bad, { "Idempotency-Key": "bad-1" })).status).toBe(404);
    expect((await m.create(bad, { "Idempotency-Key": "bad-1" })).headers.get("idempotent-replayed")).toBe("true");
  });

  it("never debits twice for one Idempotency-Key: a request that failed after the debit is resumed by its retry", async () => {
    const m = await merchant(100);
    const body = { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true };
    const text = JSON.stringify(body);
    // The first request made its invoice (binding the key in that transaction), auto_pay debited the balance, and then
    // a later step failed: the server answered 500 (here: the answer could not be read back).
    let made = "";
    const failed = idempotent(
      database.db,
      m.merchant_id,
      "after-debit-1",
      { method: "POST", endpoint: "/invoices", body: text },
      async (key) => {
        const created = await createMerchantInvoice(database.db, m.merchant_id, parseInvoiceRequest(text), key.bindInvoice);
        made = created.id;
        await payFromBalance(database.db, m.merchant_id, created.id);
        throw new Error("connection to the database lost while reading the invoice back");
      },
      async () => {
        throw new Error("not a retry");
      },
    );
    await expect(failed).rejects.toThrow(/connection to the database lost/);
    expect(await m.balance()).toBe(9000);

    // Retried, at once and twice at the same time: the same invoice, paid once.
    const retries = await Promise.all([m.create(body, { "Idempotency-Key": "after-debit-1" }), m.create(body, { "Idempotency-Key": "after-debit-1" })]);
    const answered = retries.filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(retries.every((r) => r.status === 200 || (r.status === 409 && r.body.error_code === "idempotency_key_in_use"))).toBe(true);
    for (const r of answered) expect((r.body.data as Invoice).id).toBe(made);
    expect((answered[0]!.body.data as Invoice).status).not.toBe("unpaid");
    expect(await m.balance()).toBe(9000);
    const again = await m.create(body, { "Idempotency-Key": "after-debit-1" });
    expect([again.status, (again.body.data as Invoice).id, again.headers.get("idempotent-replayed")]).toEqual([200, made, "true"]);
    expect((await listLedger(database.db, m.merchant_id, { limit: 10 })).filter((e) => e.kind === "debit")).toHaveLength(1);
  });

  it("stores an Idempotency-Key's answer with the auto_pay debit: a failure after it is answered by a replay", async () => {
    const m = await merchant(100);
    const body = { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true };
    const text = JSON.stringify(body);
    let made = "";
    const failed = idempotent(
      database.db,
      m.merchant_id,
      "after-debit-2",
      { method: "POST", endpoint: "/invoices", body: text },
      async (key) => {
        // As the handler does: the key bound, the balance debited and the answer written in the transaction that makes the invoice.
        const created = await createMerchantInvoice(database.db, m.merchant_id, parseInvoiceRequest(text), async (tx, id) => {
          await key.bindInvoice(tx, id);
          await payFromBalance(tx, m.merchant_id, id);
          const found = (await getMerchantInvoice(tx, m.merchant_id, id))!;
          await key.storeAnswer(tx, {
            status: 200,
            body: { meta: { _endpoint: "/invoices", id }, data: await invoiceJson(tx, found.invoice, found.orders, "http://127.0.0.1") },
          });
        });
        made = created.id;
        throw new Error("the process died before answering");
      },
      async () => {
        throw new Error("not a retry");
      },
    );
    await expect(failed).rejects.toThrow(/died before answering/);
    const retry = await m.create(body, { "Idempotency-Key": "after-debit-2" });
    expect([retry.status, retry.headers.get("idempotent-replayed"), retry.body.meta?.id]).toEqual([200, "true", made]);
    expect(await m.balance()).toBe(9000);
  });

  it("lists invoices newest first with after/before cursors", async () => {
    const m = await merchant(100);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(((await m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance" })).body.data as Invoice).id);
    const newest = [...ids].reverse();
    const page1 = await callRoute(listInvoices, "/api/v2/invoices?limit=2", { headers: m.headers });
    expect((page1.body.data as Invoice[]).map((i) => i.id)).toEqual(newest.slice(0, 2));
    const next = (page1.body.meta as { _next: string })._next;
    expect(next).toContain(`after=${newest[1]}`);
    const page2 = await callRoute(listInvoices, next.replace(/^https?:\/\/[^/]+/, ""), { headers: m.headers });
    expect((page2.body.data as Invoice[]).map((i) => i.id)).toEqual(newest.slice(2, 4));
    const back = await callRoute(listInvoices, `/api/v2/invoices?limit=2&before=${newest[2]}`, { headers: m.headers });
    expect((back.body.data as Invoice[]).map((i) => i.id)).toEqual(newest.slice(0, 2));
    expect((await callRoute(listInvoices, "/api/v2/invoices?after=inv_bad", { headers: m.headers })).body.error_code).toBe("invalid_param");
    // Offset paging works too.
    const byStart = await callRoute(listInvoices, "/api/v2/invoices?limit=2&start=2", { headers: m.headers });
    expect((byStart.body.data as Invoice[]).map((i) => i.id)).toEqual(newest.slice(2, 4));
  });

  it("sells eSIMs through POST /esims, lists them by ICCID, and tops one up with esim_id", async () => {
    const m = await merchant(100);
    expect(
      (
        await callRoute(createEsimInvoice, "/api/v2/esims", {
          headers: m.headers,
          body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance" },
        })
      ).body.error_code,
    ).toBe("invalid_param");
    const created = await callRoute(createEsimInvoice, "/api/v2/esims", {
      headers: m.headers,
      body: { products: [{ product_id: "test-esim-product", value: "1GB, 7 Days" }], payment_method: "balance", auto_pay: true },
    });
    const id = (created.body.data as Invoice).id;
    await fulfil();
    expect(((await callRoute(getEsimInvoice, `/api/v2/esims/invoice/${id}`, { headers: m.headers, params: { id } })).body.data as Invoice).status).toBe(
      "complete",
    );
    const esims = (await callRoute(listEsims, "/api/v2/esims", { headers: m.headers })).body.data as {
      iccid: string;
      barcode_value: string;
      bundles: { value: string }[];
    }[];
    expect(esims).toHaveLength(1);
    const iccid = esims[0]!.iccid;
    expect(esims[0]!.barcode_value).toMatch(/^LPA:1\$/);

    await callRoute(createEsimInvoice, "/api/v2/esims", {
      headers: m.headers,
      body: { products: [{ product_id: "test-esim-product", value: "3GB, 30 Days", esim_id: iccid }], payment_method: "balance", auto_pay: true },
    });
    await fulfil();
    const one = await callRoute(getEsim, `/api/v2/esims/${iccid}`, { headers: m.headers, params: { id: iccid } });
    expect((one.body.data as { bundles: { value: string }[] }).bundles.map((b) => b.value)).toEqual(["1GB, 7 Days", "3GB, 30 Days"]);
    expect((await callRoute(getEsim, "/api/v2/esims/8944500000000000006", { headers: m.headers, params: { id: "8944500000000000006" } })).status).toBe(404);
    expect((await callRoute(getEsim, "/api/v2/esims/not-an-iccid", { headers: m.headers, params: { id: "not-an-iccid" } })).status).toBe(404);

    // A second eSIM: the list pages newest first, and the top-up stays with its own eSIM.
    await callRoute(createEsimInvoice, "/api/v2/esims", {
      headers: m.headers,
      body: { products: [{ product_id: "test-esim-product", value: "1GB, 7 Days" }], payment_method: "balance", auto_pay: true },
    });
    await fulfil();
    const first = await callRoute(listEsims, "/api/v2/esims?limit=1", { headers: m.headers });
    const firstPage = first.body.data as { iccid: string; bundles: unknown[] }[];
    expect(first.body.meta).toMatchObject({ start: 0, limit: 1, count: 1, total: 2 });
    expect(firstPage[0]!.iccid).not.toBe(iccid);
    expect(firstPage[0]!.bundles).toHaveLength(1);
    const next = new URL(String(first.body.meta!._next));
    expect(next.searchParams.get("start")).toBe("1");
    const second = await callRoute(listEsims, `/api/v2/esims${next.search}`, { headers: m.headers });
    expect((second.body.data as { iccid: string }[]).map((e) => e.iccid)).toEqual([iccid]);
    expect(second.body.meta!._next).toBeUndefined();
    expect((await callRoute(listEsims, "/api/v2/esims?limit=51", { headers: m.headers })).body.error_code).toBe("invalid_param");
  });
});

/**
 * The shop's own gift cards through the merchant API's route handlers: a 25-card batch bought from the balance, then
 * its cards spent on invoices (`payment_method: "gift_card"` or `gift_card_code` with the balance): in full, in part with
 * the rest from the balance, set aside and given back when an invoice is not paid, given back first when an order fails.
 */
import { describe, expect, it } from "vitest";
import { GET as getBatch } from "@/app/api/v2/gift-card-batches/[id]/route";
import { GET as listBatches, POST as createBatch } from "@/app/api/v2/gift-card-batches/route";
import { GET as balance } from "@/app/api/v2/accounts/balance/route";
import { GET as getInvoice } from "@/app/api/v2/invoices/[id]/route";
import { POST as createInvoice } from "@/app/api/v2/invoices/route";
import type { Database } from "@/lib/platform/db";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { cardStatement } from "@/lib/gift-cards";
import { expireInvoices } from "@/lib/checkout";
import { createMerchant } from "@/lib/merchants";
import { basicAuth, callRoute } from "@/test/merchant-api";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

type Batch = { id: string; status: string; quantity: number; issued: number; price: number; cards: { code: string; balance: string; value: string }[] };
type Invoice = { id: string; status: string; payment: { price: number; gift_card?: number; status: string }; orders: { id: string; status: string }[] };

async function merchant(creditCents: bigint) {
  const m = await createMerchant(database.db, { name: "Gift", creditCents });
  return { ...m, headers: basicAuth(m.api_id, m.api_secret) };
}

async function cents(m: { headers: Record<string, string> }) {
  return ((await callRoute(balance, "/api/v2/accounts/balance", { headers: m.headers })).body as { data: { balance: number } }).data.balance;
}

function invoice(m: { headers: Record<string, string> }, body: Record<string, unknown>) {
  return callRoute(createInvoice, "/api/v2/invoices", { method: "POST", headers: m.headers, body });
}

describe(`gift cards through the merchant API on ${testDriver}`, () => {
  it("sells a batch of 25 and spends its cards in full, in part with the balance, and never twice", async () => {
    const seller = await merchant(100_000n);
    const made = await callRoute(createBatch, "/api/v2/gift-card-batches", {
      method: "POST",
      headers: { ...seller.headers, "Idempotency-Key": "batch-25" },
      body: { quantity: 25, value: "20.00", currency: "USD" },
    });
    expect(made.status).toBe(200);
    const batch = (made.body as { data: Batch }).data;
    expect(batch).toMatchObject({ status: "complete", quantity: 25, issued: 25, price: 50_000 });
    expect(new Set(batch.cards.map((c) => c.code)).size).toBe(25);
    expect(await cents(seller)).toBe(50_000);
    // The same request again: the same batch, not a second charge.
    const again = await callRoute(createBatch, "/api/v2/gift-card-batches", {
      method: "POST",
      headers: { ...seller.headers, "Idempotency-Key": "batch-25" },
      body: { quantity: 25, value: "20.00", currency: "USD" },
    });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((again.body as { data: Batch }).data.id).toBe(batch.id);
    expect(await cents(seller)).toBe(50_000);
    const listed = (await callRoute(listBatches, "/api/v2/gift-card-batches", { headers: seller.headers })).body as { data: Batch[] };
    expect(listed.data.map((b) => b.id)).toEqual([batch.id]);
    expect(listed.data[0]).not.toHaveProperty("cards");
    const read = (await callRoute(getBatch, `/api/v2/gift-card-batches/${batch.id}`, { headers: seller.headers, params: { id: batch.id } })).body as {
      data: Batch;
    };
    expect(read.data.cards.map((c) => c.code)).toEqual(batch.cards.map((c) => c.code));

    // Another account holding a code spends it: a $10 card item is paid by the $20 card alone, at once.
    const buyer = await merchant(0n);
    const [first, second, third] = batch.cards.map((c) => c.code);
    const whole = await invoice(buyer, { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "gift_card", gift_card_code: first });
    expect(whole.body).toMatchObject({ data: {} });
    const paid = (whole.body as { data: Invoice }).data;
    expect(paid.status).toBe("processing");
    expect(paid.payment.status).toBe("payment_confirmed");
    expect(paid.payment.gift_card).toBe(paid.payment.price);
    const left = Number((await cardStatement(database.db, first!)).balance);
    expect(left).toBeCloseTo(20 - paid.payment.price / 100, 2);

    // Another $10 item on what is left: the card pays what it has, the balance the rest (auto_pay).
    await expect(
      invoice(buyer, { products: [{ product_id: "test-gift-card-code", value: 20 }], payment_method: "gift_card", gift_card_code: first, auto_pay: true }),
    ).resolves.toMatchObject({
      status: 402,
      body: { error_code: "balance_too_low" },
    });
    // That refusal gave the card's value back (the invoice was denied).
    expect(Number((await cardStatement(database.db, first!)).balance)).toBeCloseTo(left, 2);
    const topped = await merchant(5_000n);
    const part = await invoice(topped, {
      products: [{ product_id: "test-gift-card-code", value: 20 }],
      payment_method: "gift_card",
      gift_card_code: first,
      auto_pay: true,
    });
    expect(part.status).toBe(200);
    const partly = (part.body as { data: Invoice }).data;
    expect(partly.payment.status).toBe("payment_confirmed");
    expect(partly.payment.gift_card).toBe(Math.round(left * 100));
    expect(await cents(topped)).toBe(5_000 - (partly.payment.price - partly.payment.gift_card!));
    expect((await cardStatement(database.db, first!)).balance).toBe("0");
    // An empty card, a code that is none, and gift_card without a code are refused and charge nothing (a code with a
    // USDC method pays too: ./gift-card-usdc.db.test.ts).
    for (const [body, code] of [
      [{ payment_method: "gift_card", gift_card_code: first }, "invalid_param"],
      [{ payment_method: "gift_card", gift_card_code: "AAAA-BBBB-CCCC-DDDD-EEEE" }, "invalid_param"],
      [{ payment_method: "gift_card" }, "missing_param"],
    ] as const) {
      const refused = await invoice(topped, { products: [{ product_id: "test-gift-card-code", value: 10 }], ...body });
      expect(refused.body, JSON.stringify(body)).toMatchObject({ error_code: code });
    }
    expect((await cardStatement(database.db, second!)).balance).toBe("20");

    // An invoice not paid: the card's value is set aside, then given back when it expires.
    const open = (await invoice(topped, { products: [{ product_id: "test-gift-card-code", value: 50 }], payment_method: "balance", gift_card_code: second }))
      .body as {
      data: Invoice;
    };
    expect(open.data.payment.status).toBe("unpaid");
    expect((await cardStatement(database.db, second!)).held).not.toBe("0");
    await expireInvoices(database.db, new Date(Date.now() + 24 * 3600_000));
    expect(await cardStatement(database.db, second!)).toMatchObject({ balance: "20", held: "0" });

    // A failed order is refunded to the card first, as far as the card paid; the rest to the balance.
    const before = await cents(topped);
    const failing = (
      await invoice(topped, {
        products: [{ product_id: "test-gift-card-code-fail", value: 50 }],
        payment_method: "gift_card",
        gift_card_code: third,
        auto_pay: true,
      })
    ).body as { data: Invoice };
    expect(failing.data.payment.gift_card).toBe(2_000);
    const paidFromBalance = failing.data.payment.price - 2_000;
    expect(paidFromBalance).toBeGreaterThan(0);
    expect(await cents(topped)).toBe(before - paidFromBalance);
    await drainDue(database.db);
    const ended = (await callRoute(getInvoice, `/api/v2/invoices/${failing.data.id}`, { headers: topped.headers, params: { id: failing.data.id } })).body as {
      data: Invoice;
    };
    expect(ended.data.orders[0]!.status).toBe("refunded");
    expect(await cardStatement(database.db, third!)).toMatchObject({ balance: "20", held: "0" });
    expect(await cents(topped)).toBe(before);
  });
});

/**
 * A gift card of the shop on a merchant's USDC invoice (`payment_method: "usdc_*"` with `gift_card_code`), through the
 * route handlers: the card pays first (its value set aside at creation), `payment.amount_usdc`, the payment page and
 * invoice/pay ask exactly the rest, and a real payment of it on the devnet's chain spends the card's value once and
 * completes the invoice. A card that pays it all pays it at once; an invoice that expires or is denied gives the value
 * back; invoices racing for one card's value never take more than it holds.
 */
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { GET as payPageRoute } from "@/app/api/pay/[id]/route";
import { GET as getInvoiceRoute } from "@/app/api/v2/invoices/[id]/route";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { tableFxSource } from "@/lib/catalog/fx";
import { STORE_GIFT_CARD_SLUG } from "@/lib/catalog/store-products";
import type { Database } from "@/lib/platform/db";
import { giftCardHolds, orders } from "@/lib/platform/db/schema";
import { testDriver, withTestCatalog } from "@/test/db";
import type { Devnet } from "@/lib/devnet";
import { processTestDevnet } from "@/test/devnet";
import { drainDue, refundFailedOrders } from "@/lib/fulfilment";
import { fakePayout, payInvoice as markInvoicePaid } from "@/test/fulfilment";
import { cardStatement } from "@/lib/gift-cards";
import { payInvoice } from "@/lib/checkout/x402/pay";
import { denyUnpaid, expireInvoices, getInvoice } from "@/lib/checkout";
import { createMerchant } from "@/lib/merchants";
import { batchCards, createBatch, issueBatch } from "@/lib/merchants/gift-card-batches";
import { GIFT_CARD_GUESS_LIMITS } from "@/lib/platform/ratelimit/policies";
import { bearerAuth, callRoute } from "@/test/merchant-api";

let database: Database;
let devnet: Devnet;
processTestDevnet("gift-card-usdc", (ctx) => ({ database, devnet } = ctx), withTestCatalog);

const HOUR = 3_600_000;
const USDC_PER_CENT = 10_000n;

type Payment = {
  method: string;
  price: number;
  status: string;
  gift_card?: number;
  amount_usdc?: string;
  network?: string;
  transaction?: string | null;
  payment_url?: string;
};
type Invoice = { id: string; status: string; status_reason?: string; payment: Payment; orders: { id: string; status: string }[] };

/** A gift card of the shop worth `value` US dollars (bought in a batch of one by another account). */
async function card(value: number): Promise<string> {
  const m = await createMerchant(database.db, { name: "Cards", creditCents: 100_000n });
  const batch = await createBatch(database.db, m.merchant_id, { quantity: 1, value, currency: "USD" }, tableFxSource("2026-11-25", { USD: "1" }));
  await issueBatch(database.db, batch.id);
  return (await batchCards(database.db, batch.id))[0]!.code;
}

async function merchant(name: string) {
  const m = await createMerchant(database.db, { name, creditCents: 0n });
  const headers = bearerAuth(m.api_token);
  return {
    create: (body: Record<string, unknown>) => callRoute(createRoute, "/api/v2/invoices", { headers, body }),
    get: async (id: string) => (await callRoute(getInvoiceRoute, `/api/v2/invoices/${id}`, { headers, params: { id } })).body.data as Invoice,
  };
}

const payRequest = (invoiceId: string, payment?: string) =>
  new Request("http://127.0.0.1/x402/invoice/pay", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(payment ? { "PAYMENT-SIGNATURE": payment } : {}) },
    body: JSON.stringify({ invoice_id: invoiceId }),
  });

async function payPage(id: string) {
  const res = await payPageRoute(new Request(`http://127.0.0.1/api/pay/${id}`), { params: Promise.resolve({ id }) });
  return (await res.json()) as Record<string, unknown>;
}

/** "6.5" for 650 cents, as the APIs write USDC amounts. */
const usdc = (cents: number) => String(cents / 100);

const holdsOf = (invoiceId: string) => database.db.select().from(giftCardHolds).where(eq(giftCardHolds.invoiceId, invoiceId));

describe(`a gift card with a USDC payment method on merchant invoices, on ${testDriver}`, () => {
  it("pays part; the rest is asked in USDC, paid on the chain once, and the card's value is spent exactly once", async () => {
    const code = await card(4);
    const m = await merchant("Part");
    const created = await m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base", gift_card_code: code });
    expect(created.status).toBe(200);
    const inv = created.body.data as Invoice;
    const rest = inv.payment.price - 400;
    expect(rest).toBeGreaterThan(0);
    expect(inv).toMatchObject({ status: "unpaid", payment: { method: "usdc_base", status: "unpaid", gift_card: 400, amount_usdc: usdc(rest) } });
    expect(inv.payment.payment_url).toEqual(expect.any(String));
    // Set aside at creation: the card shows it held, not spent.
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: "4", history: [{ status: "held", amount: "4" }] });
    // The payment page and invoice/pay ask exactly the rest, on the invoice's one network.
    expect(await payPage(inv.id)).toMatchObject({ amount_usdc: usdc(rest), amount_usdc_atomic: String(BigInt(rest) * USDC_PER_CENT), gift_card_usdc: "4" });
    const base = devnet.networks.find((n) => n.key === "base")!;
    const required = await payInvoice(payRequest(inv.id));
    expect(required.status).toBe(402);
    const offer = decodePaymentRequiredHeader(required.headers.get("payment-required")!);
    expect(offer.accepts.map((a) => [a.network, a.amount])).toEqual([[base.network, String(BigInt(rest) * USDC_PER_CENT)]]);

    // A funded wallet pays it with the official client, on the devnet's chain.
    const account = privateKeyToAccount(generatePrivateKey());
    await devnet.mint(base.network, account.address, 50_000_000n);
    const client = new x402Client().register(base.network, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
    const header = encodePaymentSignatureHeader(await client.createPaymentPayload(offer));
    const paid = await payInvoice(payRequest(inv.id, header));
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await devnet.balance(base.network, account.address)).toBe(50_000_000n - BigInt(rest) * USDC_PER_CENT);
    // The same payment again pays nothing more.
    expect((await payInvoice(payRequest(inv.id, header))).status).not.toBe(200);
    expect(await devnet.balance(base.network, account.address)).toBe(50_000_000n - BigInt(rest) * USDC_PER_CENT);

    const confirmed = await m.get(inv.id);
    expect(confirmed).toMatchObject({ status: "processing", payment: { status: "payment_confirmed", gift_card: 400, network: base.network } });
    expect(confirmed.payment.payment_url).toBeUndefined();
    // Spent once, in the transaction that marked it paid: the card is down exactly by what it paid.
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: "0", history: [{ status: "spent", amount: "4" }] });
    expect(await holdsOf(inv.id)).toEqual([expect.objectContaining({ status: "spent", amountMinor: 400n, coversCents: 400n })]);

    await drainDue(database.db);
    expect(await m.get(inv.id)).toMatchObject({ status: "complete", payment: { status: "paid", gift_card: 400 }, orders: [{ status: "delivered" }] });
    // A later sweep gives nothing back: the value was spent.
    await expireInvoices(database.db, new Date(Date.now() + 24 * HOUR));
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: "0", history: [{ status: "spent" }] });
  });

  it("pays the whole invoice at once when the card covers it: no USDC asked, delivered like any paid invoice", async () => {
    const code = await card(25);
    const m = await merchant("Whole");
    const created = await m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base", gift_card_code: code });
    expect(created.status).toBe(200);
    const inv = created.body.data as Invoice;
    expect(inv).toMatchObject({ status: "processing", payment: { status: "payment_confirmed", gift_card: inv.payment.price, amount_usdc: "0" } });
    expect(inv.payment.payment_url).toBeUndefined();
    expect(inv.payment.transaction).toBeUndefined();
    const left = 25 - inv.payment.price / 100;
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: String(left), held: "0", history: [{ status: "spent" }] });
    // Nothing to pay: invoice/pay refuses it, the payment page shows it paid with nothing in USDC.
    const refused = await payInvoice(payRequest(inv.id));
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([409, "INVOICE_NOT_PAYABLE"]);
    expect(await payPage(inv.id)).toMatchObject({
      payment_status: "payment_confirmed",
      amount_usdc: "0",
      transaction: null,
      gift_card_usdc: usdc(inv.payment.price),
    });
    await drainDue(database.db);
    expect(await m.get(inv.id)).toMatchObject({ status: "complete", payment: { status: "paid" }, orders: [{ status: "delivered" }] });
    expect((await cardStatement(database.db, code)).balance).toBe(String(left));
  });

  it("gives the value back when the unpaid invoice expires or is denied, once", async () => {
    const code = await card(4);
    const m = await merchant("Late");
    const create = () => m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_solana", gift_card_code: code });
    const inv = (await create()).body.data as Invoice;
    expect(inv.payment).toMatchObject({ status: "unpaid", gift_card: 400, amount_usdc: usdc(inv.payment.price - 400) });
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: "4" });
    // While it is set aside, another invoice finds the card empty.
    expect((await create()).body).toMatchObject({ error_code: "invalid_param", message: expect.stringContaining("gift_card_code") });

    const later = new Date(Date.now() + 2 * HOUR);
    expect(await expireInvoices(database.db, later)).toBeGreaterThanOrEqual(1);
    expect(await expireInvoices(database.db, later)).toBe(0);
    expect(await m.get(inv.id)).toMatchObject({ status: "denied", status_reason: "expired", payment: { status: "expired" } });
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "4", held: "0", history: [{ status: "released" }] });
    const expired = await payInvoice(payRequest(inv.id));
    expect([expired.status, ((await expired.json()) as { code: string }).code]).toEqual([404, "INVOICE_EXPIRED"]);

    // Denied before payment: the same.
    const again = (await create()).body.data as Invoice;
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: "4" });
    expect(await denyUnpaid(database.db, again.id, { code: "expired", message: "Not paid." })).toBe(true);
    expect(await denyUnpaid(database.db, again.id, { code: "expired", message: "Not paid." })).toBe(false);
    expect(await m.get(again.id)).toMatchObject({ status: "denied" });
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "4", held: "0" });
    expect((await holdsOf(again.id)).map((h) => h.status)).toEqual(["released"]);
  });

  it("never takes more of a card than it holds when invoices race for it", async () => {
    const code = await card(25);
    const m = await merchant("Race");
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base", gift_card_code: code }),
      ),
    );
    const made = answers.filter((a) => a.status === 200).map((a) => a.body.data as Invoice);
    const refused = answers.filter((a) => a.status !== 200);
    for (const r of refused) expect(r.body).toMatchObject({ error_code: "invalid_param" });
    // The card's 25 dollars, no more: two invoices paid in full by it, one in part, the last refused.
    expect(made.reduce((sum, i) => sum + (i.payment.gift_card ?? 0), 0)).toBe(2_500);
    expect(made.map((i) => i.payment.status).sort()).toEqual(["payment_confirmed", "payment_confirmed", "unpaid"]);
    expect(refused).toHaveLength(1);
    const part = made.find((i) => i.payment.status === "unpaid")!;
    expect(part.payment.amount_usdc).toBe(usdc(part.payment.price - part.payment.gift_card!));
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: usdc(part.payment.gift_card!) });
    // The unpaid one expires: its part comes back, the spent part does not.
    await expireInvoices(database.db, new Date(Date.now() + 2 * HOUR));
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: usdc(part.payment.gift_card!), held: "0" });
  });

  it("refunds a failed order to the card first and pays only the rest back in USDC", async () => {
    const code = await card(4);
    const m = await merchant("Failing");
    const inv = (await m.create({ products: [{ product_id: "test-gift-card-code-fail", value: 10 }], payment_method: "usdc_base", gift_card_code: code })).body
      .data as Invoice;
    const base = devnet.networks.find((n) => n.key === "base")!;
    const payer = privateKeyToAccount(generatePrivateKey()).address;
    await markInvoicePaid(database.db, inv.id, { network: base.network, payer });
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "0", held: "0" });
    await drainDue(database.db);
    const [order] = await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id));
    expect(order).toMatchObject({ status: "failed", refundGiftCardCents: 400n });
    expect((await cardStatement(database.db, code)).balance).toBe("4");
    const { payout, calls } = fakePayout();
    const rest = BigInt(inv.payment.price - 400) * USDC_PER_CENT;
    expect(await refundFailedOrders(database.db, inv.id, payout)).toMatchObject({ amountUsdc: rest });
    expect(calls.map((c) => [c.amount, c.to.payer])).toEqual([[rest, payer]]);
    expect((await getInvoice(database.db, inv.id))?.giftCardCents).toBe(400n);
  });

  it("refuses the shop's own gift card product with a card, and counts wrong codes as guesses", async () => {
    const code = await card(50);
    const m = await merchant("Guesses");
    const own = await m.create({ products: [{ product_id: STORE_GIFT_CARD_SLUG, value: 10 }], payment_method: "usdc_base", gift_card_code: code });
    expect([own.status, own.body.error_code]).toEqual([400, "invalid_param"]);
    expect(own.body.message).toMatch(/^Invalid parameter gift_card_code: /);
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "50", held: "0", history: [] });

    for (let i = 0; i < GIFT_CARD_GUESS_LIMITS.holder.points; i++) {
      const wrong = await m.create({
        products: [{ product_id: "test-gift-card-code", value: 10 }],
        payment_method: "usdc_polygon",
        gift_card_code: "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ",
      });
      expect(wrong.body).toMatchObject({ error_code: "invalid_param" });
    }
    const stopped = await m.create({ products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base", gift_card_code: code });
    expect([stopped.status, stopped.body.error_code]).toEqual([429, "too_many_requests"]);
    expect((await cardStatement(database.db, code)).balance).toBe("50");
  });
});

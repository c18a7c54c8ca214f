import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { SettleResponse } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getInvoiceRoute } from "@/app/api/v2/invoices/[id]/route";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { GET as getOrderRoute } from "@/app/api/v2/orders/[id]/route";
import type { Database } from "@/lib/platform/db";
import { webhookDeliveries } from "@/lib/platform/db/schema";
import { testDriver, withTestCatalog } from "@/test/db";
import type { Devnet } from "@/lib/devnet";
import { processTestDevnet } from "@/test/devnet";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import { settlementEffects } from "@/lib/checkout/settlement-effects";
import { payInvoice } from "@/lib/checkout/x402/pay";
import { expireInvoices } from "@/lib/checkout";
import { createMerchant } from "@/lib/merchants";
import { getPayments, type Payments } from "@/lib/payments/payments";
import { reconcileSettlements } from "@/lib/payments/settlements";
import { chainVerdict } from "@/lib/payments/verdict";
import { drainWebhooks } from "@/lib/webhooks";
import { startReceiver, type Receiver } from "@/test/webhooks";
import { chainControl } from "@/test/adversarial/chain-control";

// A USDC payment accepted for a merchant invoice (sent for settlement, answered PAYMENT_PENDING) that never lands, on
// the devnet's chain: the settlement's send is made to report a transaction that the chain never mines, and the
// upkeep's real chain verdict, asked after the authorization's validBefore, finds it can never land.

let database: Database;
let devnet: Devnet;
let payments: Payments;
const receivers: Receiver[] = [];
processTestDevnet("payment-error", (ctx) => ({ database, devnet } = ctx), withTestCatalog);

beforeAll(async () => {
  payments = await getPayments();
  // Every settlement is sent and its receipt never comes: the outcome is left to the chain (pending).
  vi.spyOn(payments.server, "settlePayment").mockImplementation(
    async (_payload, requirement) =>
      ({
        success: false,
        errorReason: "the receipt did not come in time",
        transaction: `0x${"ab".repeat(32)}`,
        network: requirement.network,
      }) as SettleResponse,
  );
});
afterAll(async () => {
  vi.restoreAllMocks();
  for (const r of receivers) await r.close();
});

const MINUTE = 60_000;

const baseChain = () => chainControl(devnet.networks.find((n) => n.key === "base")!.rpcUrl);
const reconcile = (now: Date) => reconcileSettlements(database.db, (s) => chainVerdict(payments.networks, s), settlementEffects, now);
/** The upkeep's decision of open settlements at `now`, from what the chain says when its clock reads `now`. */
const reconcileAt = (now: Date) => baseChain().atTime(now, () => reconcile(now));

const payRequest = (invoiceId: string, payment?: string) =>
  new Request("http://127.0.0.1/x402/invoice/pay", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(payment ? { "PAYMENT-SIGNATURE": payment } : {}) },
    body: JSON.stringify({ invoice_id: invoiceId }),
  });

/** A merchant's USDC invoice with a webhook, and a payment of it that was accepted and is waiting for the chain. */
async function acceptedPayment(name: string) {
  const m = await createMerchant(database.db, { name });
  const receiver = await startReceiver();
  receivers.push(receiver);
  const auth = bearerAuth(m.api_token);
  const created = await callRoute(createRoute, "/api/v2/invoices", {
    headers: auth,
    body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base", webhook_url: receiver.url(`/${name}`) },
  });
  const id = (created.body.data as { id: string }).id;
  const required = await payInvoice(payRequest(id));
  expect(required.status).toBe(402);
  const network = devnet.networks.find((n) => n.key === "base")!.network;
  // Funded: a payment is verified (the payer's balance among the rest) before it is recorded.
  const account = privateKeyToAccount(generatePrivateKey());
  await devnet.mint(network, account.address, 50_000_000n);
  const client = new x402Client().register(network, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
  const header = encodePaymentSignatureHeader(await client.createPaymentPayload(decodePaymentRequiredHeader(required.headers.get("payment-required")!)));
  const pending = await payInvoice(payRequest(id, header));
  expect([pending.status, ((await pending.json()) as { code?: string }).code]).toEqual([409, "PAYMENT_PENDING"]);
  const get = async () => (await callRoute(getInvoiceRoute, `/api/v2/invoices/${id}`, { headers: auth, params: { id } })).body.data as Record<string, unknown>;
  const deliveries = () => database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.invoiceId, id));
  return { m, auth, id, receiver, get, deliveries };
}

const reason = "The payment could not be settled (the authorization expired unused): nothing was charged.";

describe(`a USDC payment accepted and then failed for good ends its invoice payment_error, on ${testDriver}`, () => {
  it("held past its expiry by the payment: payment_error once the chain says it can never land, its orders failed, one webhook", async () => {
    const { m, auth, id, receiver, get, deliveries } = await acceptedPayment("held");
    // Waiting for the chain: not final, whatever the time (the payment may still land).
    expect(await get()).toMatchObject({ status: "unpaid", payment: { status: "unpaid" }, orders: [{ status: "created" }] });

    // Long after the invoice's expiry and the authorization's validBefore: two upkeeps decide at once, a sweep beside.
    const later = new Date(Date.now() + 2 * 60 * MINUTE);
    const [a, b] = await baseChain().atTime(later, () => Promise.all([reconcile(later), reconcile(later), expireInvoices(database.db, later)]));
    expect(a.failed + b.failed).toBe(1);

    const final = await get();
    expect(final).toMatchObject({
      status: "payment_error",
      completed_time: later.toISOString(),
      payment: { status: "payment_error", paid_time: null },
      orders: [{ status: "failed", error: reason }],
    });
    expect(final.status_reason).toBeUndefined();
    expect((final.payment as Record<string, unknown>).payment_url).toBeUndefined();
    const orderId = (final.orders as { id: string }[])[0]!.id;
    const order = await callRoute(getOrderRoute, `/api/v2/orders/${orderId}`, { headers: auth, params: { id: orderId } });
    expect(order.body.data).toMatchObject({ status: "failed", error: reason });
    // It can no longer be paid.
    expect((await payInvoice(payRequest(id))).status).toBe(404);

    // One final status, one webhook, whose body is what GET /invoices/{id} answers.
    expect((await deliveries()).map((d) => d.eventType)).toEqual(["invoice.payment_error"]);
    await reconcileAt(later);
    await expireInvoices(database.db, later);
    await drainWebhooks(database.db, { now: later, mode: "devnet" });
    expect(receiver.requests).toHaveLength(1);
    const body = new Webhook(m.webhook_secret).verify(receiver.requests[0]!.body, receiver.requests[0]!.headers as Record<string, string>);
    expect(body).toEqual(await get());
  });

  it("given back before its expiry: payable again, then payment_error at its expiry if not paid, with one webhook", async () => {
    const { m, id, receiver, get, deliveries } = await acceptedPayment("released");
    // The authorization is dead (validBefore is 5 minutes after signing) while the invoice (15 minutes) is not.
    const dead = new Date(Date.now() + 7 * MINUTE);
    expect(await reconcileAt(dead)).toMatchObject({ failed: 1 });
    const again = await get();
    expect(again).toMatchObject({ status: "unpaid", payment: { status: "unpaid", payment_url: expect.any(String) }, orders: [{ status: "created" }] });
    expect(await deliveries()).toEqual([]);
    expect((await payInvoice(payRequest(id))).status).toBe(402);

    // Not paid in time: two sweeps at once end it payment_error, once.
    const later = new Date(Date.now() + 2 * 60 * MINUTE);
    const ended = await Promise.all([expireInvoices(database.db, later), expireInvoices(database.db, later)]);
    expect(ended.reduce((s, n) => s + n, 0)).toBe(1);
    const final = await get();
    expect(final).toMatchObject({ status: "payment_error", payment: { status: "payment_error" }, orders: [{ status: "failed", error: reason }] });
    expect(final.completed_time).toBe(final.expires_time);
    expect((await deliveries()).map((d) => d.eventType)).toEqual(["invoice.payment_error"]);
    await drainWebhooks(database.db, { now: later, mode: "devnet" });
    expect(receiver.requests).toHaveLength(1);
    expect(new Webhook(m.webhook_secret).verify(receiver.requests[0]!.body, receiver.requests[0]!.headers as Record<string, string>)).toEqual(final);
  });
});

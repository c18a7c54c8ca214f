/**
 * The shop's gift cards on a wallet's invoice (POST /x402/invoice/create `gift_card_code`): a card that pays it all
 * pays it at once; one that pays part leaves `amount_due_usdc`, which is what invoice/pay asks; a failed order gives
 * the card its share back first and the USDC refund pays only the rest.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { drainDue, refundFailedOrders } from "@/lib/fulfilment";
import { fakePayout, payInvoice as markInvoicePaid } from "@/test/fulfilment";
import { createInvoiceResponse } from "@/lib/checkout/x402/invoice";
import { payInvoice } from "@/lib/checkout/x402/pay";
import { invoiceStatusResponse } from "@/lib/checkout/x402/status";
import { getInvoice } from "@/lib/checkout";
import { createMerchant } from "@/lib/merchants";
import type { EvmNetwork } from "@/lib/platform/networks";
import { installInProcessPayments, offlineSolanaNetwork } from "@/test/payments";
import { batchCards, createBatch, issueBatch } from "@/lib/merchants/gift-card-batches";
import { cardStatement } from ".";
import { setFxSource, shippedFxSource, tableFxSource } from "@/lib/catalog/fx";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

let restorePayments: (() => void) | undefined;
let evm: EvmNetwork;
beforeAll(async () => {
  evm = {
    key: "base",
    kind: "evm",
    network: "eip155:84532",
    chainId: 84532,
    name: "Base (no chain)",
    rpcUrl: "http://127.0.0.1:9",
    payTo: privateKeyToAccount(generatePrivateKey()).address,
    usdc: { address: "0x4020000000000000000000000000000000005dc0", name: "USD Coin", version: "2", decimals: 6 },
  };
  restorePayments = await installInProcessPayments([evm, await offlineSolanaNetwork("Solana (no chain)")]);
});
afterAll(() => restorePayments?.());

const ORIGIN = "http://shop.test";
const wallet = () => ({ chainId: "eip155:84532", address: privateKeyToAccount(generatePrivateKey()).address });

async function card(value: number): Promise<string> {
  const merchant = await createMerchant(database.db, { name: "Cards", creditCents: 100_000n });
  const batch = await createBatch(database.db, merchant.merchant_id, { quantity: 1, value, currency: "USD" }, tableFxSource("2026-11-25", { USD: "1" }));
  await issueBatch(database.db, batch.id);
  return (await batchCards(database.db, batch.id))[0]!.code;
}

function create(body: unknown, payer = wallet()) {
  const req = new Request(`${ORIGIN}/x402/invoice/create`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return createInvoiceResponse(req, payer, ORIGIN);
}

describe(`gift cards on wallet invoices, on ${testDriver}`, () => {
  it("pays an invoice in full at creation, or leaves the rest due for invoice/pay", async () => {
    const code = await card(25);
    const whole = await create({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], gift_card_code: code });
    expect(whole).toMatchObject({ status: "paid", amount_due_usdc: "0", gift_card_usdc: whole.price_usdc });
    expect(whole.next_step.url).toContain("/x402/invoice/status");
    expect((await getInvoice(database.db, whole.invoice_id))?.status).toBe("paid");
    // Delivered like any paid invoice.
    await drainDue(database.db);
    expect((await getInvoice(database.db, whole.invoice_id))?.status).toBe("complete");

    const left = Number((await cardStatement(database.db, code)).balance);
    const part = await create({ items: [{ product_id: "test-gift-card-code", package_value: "20" }], gift_card_code: code });
    expect(part.status).toBe("unpaid");
    expect(Number(part.gift_card_usdc)).toBeCloseTo(left, 2);
    expect(Number(part.amount_due_usdc)).toBeCloseTo(Number(part.price_usdc) - left, 2);
    // The status tells the same amounts, for the invoice page.
    const status = (id: string) => invoiceStatusResponse(new URL(`${ORIGIN}/x402/invoice/status?invoice_id=${id}`), ORIGIN, null);
    expect(await status(part.invoice_id)).toMatchObject({ status: "unpaid", gift_card_usdc: part.gift_card_usdc, amount_due_usdc: part.amount_due_usdc });
    expect(await status(whole.invoice_id)).toMatchObject({ status: "complete", gift_card_usdc: whole.price_usdc, amount_due_usdc: "0" });
    // invoice/pay asks exactly the rest.
    const res = await payInvoice(new Request(`${ORIGIN}/x402/invoice/pay`, { method: "POST", body: JSON.stringify({ invoice_id: part.invoice_id }) }));
    expect(res.status).toBe(402);
    const asked = decodePaymentRequiredHeader(res.headers.get("payment-required")!).accepts.map((a) => a.amount);
    expect(new Set(asked)).toEqual(new Set([String(BigInt(Math.round(Number(part.amount_due_usdc) * 100)) * 10_000n)]));
    // A second invoice finds the card empty; a wrong code is refused as such.
    await expect(create({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], gift_card_code: code })).rejects.toMatchObject({
      code: "gift_card_empty",
    });
    await expect(
      create({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], gift_card_code: "0000-0000-0000-0000-0000" }),
    ).rejects.toMatchObject({
      code: "unknown_gift_card",
    });
  });

  it("refunds a failed order to the card first and pays only the rest in USDC", async () => {
    const code = await card(5);
    const payer = wallet();
    const created = await create({ items: [{ product_id: "test-gift-card-code-fail", package_value: "10" }], gift_card_code: code }, payer);
    expect(created.gift_card_usdc).toBe("5");
    await markInvoicePaid(database.db, created.invoice_id, { network: evm.network, payer: payer.address });
    await drainDue(database.db);
    const [order] = await database.db.select().from(orders).where(eq(orders.invoiceId, created.invoice_id));
    expect(order).toMatchObject({ status: "failed", refundGiftCardCents: 500n });
    expect((await cardStatement(database.db, code)).balance).toBe("5");
    const { payout, calls } = fakePayout();
    const refund = await refundFailedOrders(database.db, created.invoice_id, payout);
    const due = BigInt(Math.round(Number(created.amount_due_usdc) * 100)) * 10_000n;
    expect(refund).toMatchObject({ amountUsdc: due });
    expect(calls.map((c) => c.amount)).toEqual([due]);
    const [after] = await database.db.select().from(orders).where(eq(orders.invoiceId, created.invoice_id));
    expect(after).toMatchObject({ status: "refunded", refundUsdc: due });
  });

  it("refuses a card whose currency has no current rate, and spends nothing", async () => {
    const merchant = await createMerchant(database.db, { name: "Euro cards", creditCents: 100_000n });
    const batch = await createBatch(database.db, merchant.merchant_id, { quantity: 1, value: 20, currency: "EUR" }, shippedFxSource);
    await issueBatch(database.db, batch.id);
    const code = (await batchCards(database.db, batch.id))[0]!.code;
    setFxSource(tableFxSource(shippedFxSource.asOf, { USD: "1" }));
    try {
      await expect(create({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], gift_card_code: code })).rejects.toMatchObject({
        code: "gift_card_unavailable",
      });
    } finally {
      setFxSource(shippedFxSource);
    }
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "20", held: "0", history: [] });
    // With the rate back, it pays.
    expect((await create({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], gift_card_code: code })).status).toBe("paid");
  });

  it("refunds a failed order of an invoice the card paid in full to the card alone, with no transfer", async () => {
    const code = await card(20);
    const created = await create({ items: [{ product_id: "test-gift-card-code-fail", package_value: "10" }], gift_card_code: code });
    expect(created.status).toBe("paid");
    expect((await cardStatement(database.db, code)).balance).toBe("10");
    await drainDue(database.db);
    expect((await cardStatement(database.db, code)).balance).toBe("20");
    const { payout, calls } = fakePayout();
    expect(await refundFailedOrders(database.db, created.invoice_id, payout)).toMatchObject({ amountUsdc: 0n, tx: null });
    expect(calls).toEqual([]);
    const [after] = await database.db.select().from(orders).where(eq(orders.invoiceId, created.invoice_id));
    expect(after).toMatchObject({ status: "refunded", refundUsdc: 0n, refundGiftCardCents: 1_000n });
  });
});

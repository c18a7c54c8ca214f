import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices } from "@/lib/platform/db/schema";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import type { Database } from "@/lib/platform/db";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { createMerchant } from "@/lib/merchants";
import { getMerchantOrderDetail, getMerchantRedemption } from "./order-detail";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

async function order(token: string, product: string, autoPay = true) {
  const res = await callRoute(createRoute, "/api/v2/invoices", {
    headers: bearerAuth(token),
    body: { products: [{ product_id: product, value: 10 }], payment_method: "balance", auto_pay: autoPay },
  });
  expect(res.status).toBe(200);
  return (res.body.data as { orders: { id: string }[] }).orders[0]!.id;
}

const labels = (steps: { label: string; at: Date | null }[]) => steps.map((s) => `${s.label}${s.at ? "" : " (ahead)"}`);

describe(`an order in the dashboard, on ${testDriver}`, () => {
  it("tells each order's story: waiting for payment, being delivered, delivered, failed and refunded", async () => {
    const m = await createMerchant(database.db, { name: "Timeline", creditCents: 100_00n });
    const unpaid = await order(m.api_token, "test-gift-card-code", false);
    const delivered = await order(m.api_token, "test-gift-card-code");
    const failing = await order(m.api_token, "test-gift-card-code-fail");

    const before = await getMerchantOrderDetail(database.db, m.merchant_id, delivered);
    expect(labels(before!.timeline)).toEqual(["Ordered", "Paid", "Being delivered (ahead)"]);
    expect(before!.timeline[1]!.detail).toBe("Paid from your balance.");
    // Had it been paid in USDC: the network by the name every other page gives it.
    await database.db.update(invoices).set({ paymentMethod: "usdc_base" }).where(eq(invoices.id, before!.invoice.id));
    const base = { key: "base", name: "Base (devnet)" } as PaymentNetwork;
    const paidInUsdc = await getMerchantOrderDetail(database.db, m.merchant_id, delivered, new Date(), [base]);
    expect(paidInUsdc!.timeline[1]!.detail).toBe("Paid: USDC on Base (devnet).");
    await database.db.update(invoices).set({ paymentMethod: "balance" }).where(eq(invoices.id, before!.invoice.id));

    await drainDue(database.db);
    const done = await getMerchantOrderDetail(database.db, m.merchant_id, delivered);
    expect(labels(done!.timeline)).toEqual(["Ordered", "Paid", "Delivered"]);
    expect(done!.refund).toBeNull();

    const refunded = await getMerchantOrderDetail(database.db, m.merchant_id, failing);
    expect(refunded!.order.status).toBe("refunded");
    expect(labels(refunded!.timeline)).toEqual(["Ordered", "Paid", "Failed", "Refunded"]);
    expect(refunded!.refund!.amountCents).toBe(refunded!.order.priceCents);
    expect(refunded!.timeline[3]!.detail).toMatch(/^\d+\.\d{2} USD back to your balance\.$/);

    const waiting = await getMerchantOrderDetail(database.db, m.merchant_id, unpaid);
    expect(labels(waiting!.timeline)).toEqual(["Ordered", "Waiting for payment (ahead)"]);
    // Once the invoice has expired unpaid, the story ends there.
    const later = new Date(Date.now() + 2 * 86_400_000);
    const expired = await getMerchantOrderDetail(database.db, m.merchant_id, unpaid, later);
    expect(labels(expired!.timeline)).toEqual(["Ordered", "Not paid"]);
  });

  it("shows codes of delivered orders only, and only to their merchant", async () => {
    const m = await createMerchant(database.db, { name: "Codes", creditCents: 100_00n });
    const other = await createMerchant(database.db, { name: "Someone else" });
    const delivered = await order(m.api_token, "test-gift-card-code");
    const failing = await order(m.api_token, "test-gift-card-code-fail");
    expect(await getMerchantRedemption(database.db, m.merchant_id, delivered)).toBeNull();
    await drainDue(database.db);

    const codes = await getMerchantRedemption(database.db, m.merchant_id, delivered);
    expect(codes).toMatchObject({ order_id: delivered, product_id: "test-gift-card-code", package_value: "10" });
    expect(codes!.code).toBeTruthy();
    expect(await getMerchantRedemption(database.db, other.merchant_id, delivered)).toBeNull();
    expect(await getMerchantOrderDetail(database.db, other.merchant_id, delivered)).toBeNull();
    expect(await getMerchantRedemption(database.db, m.merchant_id, failing)).toBeNull();
    expect(await getMerchantRedemption(database.db, m.merchant_id, "ord_nothing")).toBeNull();
  });
});

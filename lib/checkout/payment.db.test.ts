import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { createInvoiceBody } from "@/lib/api/x402/cart";
import { createInvoice } from "./create-invoice";
import { claimForPayment, expireInvoices, markPaid, payability, releaseClaim } from "./payment";
import { UNPAID_ORDER_ERRORS } from "./effective-status";
import { invoiceClaim, invoicePaymentEffect } from "./payment-effect";
import { beginSettlement, reconcileSettlements, finishSettlement, RECHECK_MS, type ChainVerdict, type Settlement } from "@/lib/payments/settlements";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

const newInvoice = (now?: Date) =>
  createInvoice(
    {
      items: createInvoiceBody.parse({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }).items,
      payer: { chainId: "eip155:1", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" },
      now,
    },
    database.db,
  );
const row = async (id: string) => (await database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const ordersOf = (id: string) =>
  database.db.select({ status: orders.status, errorCode: orders.errorCode, lastError: orders.lastError }).from(orders).where(eq(orders.invoiceId, id));

describe(`payment claims on ${testDriver}`, () => {
  it("lets one payment at a time hold an invoice, and a released claim leaves no trace", async () => {
    const inv = await newInvoice();
    const first = await claimForPayment(database.db, inv.id);
    expect("claim" in first).toBe(true);
    expect(await claimForPayment(database.db, inv.id)).toEqual({ refused: "busy" });
    await releaseClaim(database.db, inv.id, (first as { claim: string }).claim);
    expect(await row(inv.id)).toMatchObject({ status: "unpaid", paymentClaim: null, paymentTx: null });
    expect("claim" in (await claimForPayment(database.db, inv.id))).toBe(true);
  });

  it("marks paid once, under the claim, and makes the orders due", async () => {
    const inv = await newInvoice();
    const c = (await claimForPayment(database.db, inv.id)) as { claim: string };
    expect(await markPaid(database.db, inv.id, "someone-else", { network: "eip155:1", transaction: "0x1", payer: undefined })).toBe(false);
    expect(await markPaid(database.db, inv.id, c.claim, { network: "eip155:1", transaction: "0xabc", payer: "0xP" })).toBe(true);
    expect(await markPaid(database.db, inv.id, c.claim, { network: "eip155:1", transaction: "0xabc", payer: "0xP" })).toBe(false);
    expect(await row(inv.id)).toMatchObject({ status: "paid", paymentTx: "0xabc", paymentClaim: null });
    const o = await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id));
    expect(o.every((x) => x.runAt !== null)).toBe(true);
    expect(await claimForPayment(database.db, inv.id)).toEqual({ refused: "not_payable" });
  });

  it("refuses and sweeps expired invoices: once, final since their expiry, their orders failed", async () => {
    const past = new Date(Date.now() - 60 * 60_000);
    const inv = await newInvoice(past);
    expect(payability(await row(inv.id))).toBe("expired");
    expect(await claimForPayment(database.db, inv.id)).toEqual({ refused: "expired" });
    // Two sweeps at once (two servers): each invoice is ended by one of them.
    const [a, b] = await Promise.all([expireInvoices(database.db), expireInvoices(database.db)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await expireInvoices(database.db)).toBe(0);
    const swept = await row(inv.id);
    expect(swept).toMatchObject({ status: "expired", completedAt: swept.expiresAt });
    expect(await ordersOf(inv.id)).toEqual([{ status: "failed", errorCode: "expired", lastError: UNPAID_ORDER_ERRORS.expired }]);
  });

  const payment = (n: number) => ({
    network: "eip155:1",
    identity: `0xtoken:0xpayer:0x${n.toString(16).padStart(64, "0")}`,
    payer: "0xP",
    validUntil: new Date(Date.now() + 360_000),
    purpose: "invoice" as const,
    amountUsdc: 10_000_000n,
  });
  const effects = { invoice: invoicePaymentEffect };
  const claimOf = invoiceClaim;

  it("refuses one payment for a second invoice, and a second payment for a held invoice", async () => {
    const a = await newInvoice();
    const b = await newInvoice();
    const first = await beginSettlement(database.db, { ...payment(1), reference: a.id }, claimOf(a.id));
    expect("settlement" in first).toBe(true);
    // The same payment offered for another invoice: refused, and b is not touched.
    expect(await beginSettlement(database.db, { ...payment(1), reference: b.id }, claimOf(b.id))).toEqual({ refused: "in_progress" });
    expect((await row(b.id)).paymentClaim).toBeNull();
    // Another payment for a: a is held, and the refused payment leaves no record behind (it can be used elsewhere).
    expect(await beginSettlement(database.db, { ...payment(2), reference: a.id }, claimOf(a.id))).toEqual({ refused: "claim", reason: "busy" });
    expect("settlement" in (await beginSettlement(database.db, { ...payment(2), reference: b.id }, claimOf(b.id)))).toBe(true);
  });

  it("applies a landed payment once and frees the invoice of a refused one, which can then pay elsewhere", async () => {
    const a = await newInvoice();
    const b = await newInvoice();
    const s = ((await beginSettlement(database.db, { ...payment(3), reference: a.id }, claimOf(a.id))) as { settlement: Settlement }).settlement;
    expect(await finishSettlement(database.db, s.id, { status: "failed", error: "refused", refused: true }, effects)).not.toBeNull();
    // Refused as it was offered: no trace.
    expect(await row(a.id)).toMatchObject({ status: "unpaid", paymentClaim: null, errorCode: null });
    const again = ((await beginSettlement(database.db, { ...payment(3), reference: b.id }, claimOf(b.id))) as { settlement: Settlement }).settlement;
    expect(again.id).not.toBe(s.id);
    expect(await finishSettlement(database.db, again.id, { status: "settled", transaction: "0xabc" }, effects)).not.toBeNull();
    expect(await finishSettlement(database.db, again.id, { status: "settled", transaction: "0xabc" }, effects)).toBeNull();
    expect(await row(b.id)).toMatchObject({ status: "paid", paymentTx: "0xabc", paymentClaim: null });
    // Settled: the payment is used for good.
    expect(await beginSettlement(database.db, { ...payment(3), reference: a.id }, claimOf(a.id))).toEqual({ refused: "used" });
  });

  it("holds an invoice under a pending payment past its claim and its expiry, until the chain says", async () => {
    const now = new Date();
    const landed = await newInvoice();
    const lost = await newInvoice();
    const ids = new Map<string, string>();
    for (const [inv, n] of [
      [landed, 4],
      [lost, 5],
    ] as const) {
      const s = ((await beginSettlement(database.db, { ...payment(n), reference: inv.id }, claimOf(inv.id), now)) as { settlement: Settlement }).settlement;
      await finishSettlement(database.db, s.id, { status: "pending", error: "receipt timed out", transaction: `0x${n}` }, effects, now);
      ids.set(s.id, inv.id);
    }
    // Long after the claim and the invoices' expiry: still held, neither expired nor payable by another payment.
    const later = new Date(now.getTime() + 2 * 60 * 60_000);
    await expireInvoices(database.db, later);
    expect((await row(lost.id)).status).toBe("unpaid");
    expect(await claimForPayment(database.db, lost.id, { now: new Date(now.getTime() + 3 * 60_000) })).toEqual({ refused: "busy" });

    let expired = false;
    // (Other tests' settlements in this database are left open.)
    const verdict = async (s: Settlement): Promise<ChainVerdict> =>
      ids.get(s.id) === landed.id
        ? { landed: true, transaction: s.transaction! }
        : ids.get(s.id) === lost.id && expired
          ? { landed: false, final: true, why: "expired unused" }
          : { landed: false, final: false };
    expect(await reconcileSettlements(database.db, verdict, effects, later)).toMatchObject({ settled: 1, failed: 0 });
    expect((await row(landed.id)).status).toBe("paid");
    expect((await row(lost.id)).paymentClaim).not.toBeNull();
    expired = true;
    // Undecided, it is asked again only after a while (so that undecidable rows never crowd out the others).
    expect(await reconcileSettlements(database.db, verdict, effects, later)).toMatchObject({ settled: 0, failed: 0 });
    const next = new Date(later.getTime() + RECHECK_MS);
    expect(await reconcileSettlements(database.db, verdict, effects, next)).toMatchObject({ settled: 0, failed: 1 });
    // Accepted, never landed, and its time is up: it ends payment_error there, its orders failed with the reason.
    expect(await row(lost.id)).toMatchObject({ status: "payment_error", paymentClaim: null, completedAt: next });
    expect(await ordersOf(lost.id)).toEqual([
      { status: "failed", errorCode: "payment_error", lastError: "The payment could not be settled (expired unused): nothing was charged." },
    ]);
    expect(await reconcileSettlements(database.db, verdict, effects, next)).toMatchObject({ failed: 0 });
    await expireInvoices(database.db, next);
    expect((await row(lost.id)).status).toBe("payment_error");
  });

  it("gives back an invoice whose accepted payment failed before its expiry: paid by another payment, or payment_error at its expiry", async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 2 * 60 * 60_000);
    const [repaid, unpaid, refusedOnly] = [await newInvoice(), await newInvoice(), await newInvoice()];
    for (const [inv, n] of [
      [repaid, 7],
      [unpaid, 8],
    ] as const) {
      const s = ((await beginSettlement(database.db, { ...payment(n), reference: inv.id }, claimOf(inv.id), now)) as { settlement: Settlement }).settlement;
      await finishSettlement(database.db, s.id, { status: "pending", error: "receipt timed out", transaction: `0x${n}` }, effects, now);
      expect(await finishSettlement(database.db, s.id, { status: "failed", error: "the authorization expired unused" }, effects, now)).not.toBeNull();
      // Payable again (still before its expiry), marked, the reason kept on its orders.
      expect(await row(inv.id)).toMatchObject({ status: "unpaid", paymentClaim: null, errorCode: "payment_failed" });
      expect(payability(await row(inv.id), now)).toBeNull();
      expect(await ordersOf(inv.id)).toEqual([
        { status: "created", errorCode: null, lastError: "The payment could not be settled (the authorization expired unused): nothing was charged." },
      ]);
    }
    const refused = (
      (await beginSettlement(database.db, { ...payment(9), reference: refusedOnly.id }, claimOf(refusedOnly.id), now)) as { settlement: Settlement }
    ).settlement;
    await finishSettlement(database.db, refused.id, { status: "failed", error: "insufficient_funds", refused: true }, effects, now);

    // Another payment pays the first: the failure is forgotten.
    const again = ((await beginSettlement(database.db, { ...payment(10), reference: repaid.id }, claimOf(repaid.id), now)) as { settlement: Settlement })
      .settlement;
    await finishSettlement(database.db, again.id, { status: "settled", transaction: "0x10" }, effects, now);
    expect(await row(repaid.id)).toMatchObject({ status: "paid", errorCode: null });
    expect((await ordersOf(repaid.id))[0]).toMatchObject({ status: "created", lastError: null });

    // At their expiry: the one whose accepted payment failed ends payment_error, the one only refused expired.
    await expireInvoices(database.db, later);
    expect(await row(unpaid.id)).toMatchObject({ status: "payment_error" });
    expect(await ordersOf(unpaid.id)).toEqual([
      { status: "failed", errorCode: "payment_error", lastError: "The payment could not be settled (the authorization expired unused): nothing was charged." },
    ]);
    expect(await row(refusedOnly.id)).toMatchObject({ status: "expired", errorCode: null });
    expect(await ordersOf(refusedOnly.id)).toEqual([{ status: "failed", errorCode: "expired", lastError: UNPAID_ORDER_ERRORS.expired }]);
  });

  it("leaves a settling payment to its server until the hold lapses (the server died), then to the chain", async () => {
    const now = new Date();
    const inv = await newInvoice();
    await beginSettlement(database.db, { ...payment(6), reference: inv.id }, claimOf(inv.id), now);
    const verdict = async (s: Settlement): Promise<ChainVerdict> =>
      s.reference === inv.id ? { landed: true, transaction: `0xfound-${s.id}` } : { landed: false, final: false };
    expect(await reconcileSettlements(database.db, verdict, effects, new Date(now.getTime() + 1_000))).toMatchObject({ settled: 0 });
    expect(await reconcileSettlements(database.db, verdict, effects, new Date(now.getTime() + 61_000))).toMatchObject({ settled: 1 });
    expect((await row(inv.id)).status).toBe("paid");
  });
});

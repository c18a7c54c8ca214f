import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogOnce } from "@/lib/catalog/seed";
import type { Database } from "@/lib/db";
import { invoices, orders } from "@/lib/db/schema";
import { openTestDatabase, testDriver } from "@/lib/db/testing";
import { createInvoiceBody } from "./cart";
import { createInvoice } from "./create-invoice";
import { claimForPayment, expireInvoices, markPaid, payability, releaseClaim } from "./payment";
import { reconcilePendingPayments, recordPendingSettlement } from "./reconcile";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase((db) => seedCatalogOnce(db, true));
});
afterAll(() => database?.close());

const newInvoice = (now?: Date) =>
  createInvoice(
    { items: createInvoiceBody.parse({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }).items, payer: { chainId: "eip155:1", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" }, now },
    database.db,
  );
const row = async (id: string) => (await database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

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

  it("refuses and sweeps expired invoices", async () => {
    const past = new Date(Date.now() - 60 * 60_000);
    const inv = await newInvoice(past);
    expect(payability(await row(inv.id))).toBe("expired");
    expect(await claimForPayment(database.db, inv.id)).toEqual({ refused: "expired" });
    expect(await expireInvoices(database.db)).toBeGreaterThanOrEqual(1);
    expect((await row(inv.id)).status).toBe("expired");
  });

  it("holds an invoice whose settlement timed out until the chain tells, then pays or frees it", async () => {
    const now = new Date();
    const landed = await newInvoice();
    const lost = await newInvoice();
    for (const [inv, tx] of [[landed, "0xlanded"], [lost, "0xlost"]] as const) {
      const c = (await claimForPayment(database.db, inv.id)) as { claim: string };
      await recordPendingSettlement(database.db, inv.id, c.claim, { network: "eip155:1", transaction: tx, payer: "0xP" }, 360_000, now);
      expect(await claimForPayment(database.db, inv.id)).toEqual({ refused: "busy" });
    }
    const chain = async (_n: string, tx: string) => (tx === "0xlanded" ? ("success" as const) : ("unknown" as const));
    expect(await reconcilePendingPayments(database.db, chain, now)).toEqual({ paid: 1, released: 0 });
    expect((await row(landed.id)).status).toBe("paid");
    expect((await row(lost.id)).paymentClaim).not.toBeNull();
    // After the authorization window the lost transaction can no longer land: the invoice is payable again.
    expect(await reconcilePendingPayments(database.db, chain, new Date(now.getTime() + 400_000))).toEqual({ paid: 0, released: 1 });
    expect(await row(lost.id)).toMatchObject({ status: "unpaid", paymentClaim: null, paymentTx: null });
  });
});

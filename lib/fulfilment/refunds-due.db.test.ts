import { getBase58Decoder } from "@solana/kit";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import type { Wallet } from "@/lib/identity";
import { createInvoice, type CartItem } from "@/lib/checkout";
import { createDemoProvider } from "./providers/demo";
import { refundDue } from "./refund";
import { listRefundsDue, markRefundPaid } from "./refunds-due";
import { fulfilledInvoice as fulfilledInvoiceIn, item, TEST_PAYMENT } from "@/test/fulfilment";

let database: Database;
const payer: Wallet = { chainId: TEST_PAYMENT.network, address: TEST_PAYMENT.payer };
const demo = createDemoProvider("refunds due test key");
const EVM_TX = `0x${"c4".repeat(32)}`;
const SOLANA_PAYMENT = { network: "solana:LocaLnet1111111111111111111111111", payer: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" };
/** A well-formed Solana signature: base58 of 64 bytes. */
const SOLANA_TX = getBase58Decoder().decode(new Uint8Array(64).fill(7));

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());
// Each test starts with nothing due: what earlier tests left counts as refunded.
beforeEach(async () => {
  await database.db.update(orders).set({ status: "refunded", refundTx: "0xsettled" }).where(eq(orders.status, "failed"));
});

const fulfilledInvoice = (items: CartItem[], payment?: { network: string; payer: string }) =>
  fulfilledInvoiceIn(database.db, { items, payer, payment, provider: demo });

const orderRows = (invoiceId: string) => database.db.select().from(orders).where(eq(orders.invoiceId, invoiceId)).orderBy(asc(orders.position));

describe(`refunds due on ${testDriver}`, () => {
  it("lists a partly failed paid invoice once, with the summed price of its failed orders, and not an unpaid one", async () => {
    const before = new Date();
    const id = await fulfilledInvoice([
      item("test-gift-card-code-fail", "10"),
      item("test-gift-card-code", "20"),
      item("test-phone-refill-fail", "50", "+14155550134"),
    ]);
    await createInvoice({ items: [item("test-gift-card-code-fail", "10")], payer }, database.db);

    const due = await listRefundsDue(database.db);
    expect(due).toEqual([
      {
        invoiceId: id,
        payer: `eip155:${TEST_PAYMENT.payer}`,
        network: TEST_PAYMENT.network,
        paymentPayer: TEST_PAYMENT.payer,
        orders: 2,
        amountUsdc: 60_000_000n,
        since: expect.any(Date),
        lastError: expect.any(String),
      },
    ]);
    expect(due[0]!.since.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(typeof due[0]!.amountUsdc).toBe("bigint");
  });

  it("shows why an automatic payout failed", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10")]);
    await expect(
      refundDue(database.db, {
        sign: async () => {
          throw new Error("no refund key for eip155:84530402");
        },
        send: async () => undefined,
        status: async () => ({ status: "pending" }),
      }),
    ).rejects.toThrow();
    expect(await listRefundsDue(database.db)).toMatchObject([{ invoiceId: id, lastError: "refund: no refund key for eip155:84530402" }]);
  });

  it("marks a refund paid by hand, after which nothing is due", async () => {
    const id = await fulfilledInvoice([
      item("test-gift-card-code-fail", "10"),
      item("test-gift-card-code", "20"),
      item("test-phone-refill-fail", "50", "+14155550134"),
    ]);
    expect(await markRefundPaid(database.db, id, EVM_TX.toUpperCase().replace("0X", "0x"))).toBe(2);
    expect((await orderRows(id)).map((o) => [o.status, o.refundUsdc, o.refundTx])).toEqual([
      ["refunded", 10_000_000n, EVM_TX],
      ["delivered", null, null],
      ["refunded", 50_000_000n, EVM_TX],
    ]);
    expect(await listRefundsDue(database.db)).toEqual([]);
    // Marking it again is refused: nothing is due any more.
    await expect(markRefundPaid(database.db, id, EVM_TX)).rejects.toThrow(`Invoice ${id} has no refund due`);
  });

  it("takes a Solana signature for an invoice paid on Solana", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10")], SOLANA_PAYMENT);
    expect(await listRefundsDue(database.db)).toMatchObject([{ invoiceId: id, network: SOLANA_PAYMENT.network, paymentPayer: SOLANA_PAYMENT.payer }]);
    await expect(markRefundPaid(database.db, id, EVM_TX)).rejects.toThrow(/is not a Solana transaction signature/);
    expect(await markRefundPaid(database.db, id, SOLANA_TX)).toBe(1);
    expect((await orderRows(id))[0]).toMatchObject({ status: "refunded", refundTx: SOLANA_TX });
  });

  it("refuses a transaction of the wrong form, and leaves the refund due", async () => {
    const id = await fulfilledInvoice([item("test-gift-card-code-fail", "10")]);
    for (const tx of ["0x1234", SOLANA_TX, `${EVM_TX}00`, ""]) {
      await expect(markRefundPaid(database.db, id, tx)).rejects.toMatchObject({ code: "refund_refused" });
    }
    await expect(markRefundPaid(database.db, id, "0x1234")).rejects.toThrow(/is not an EVM transaction hash/);
    expect(await listRefundsDue(database.db)).toMatchObject([{ invoiceId: id, orders: 1 }]);
    expect((await orderRows(id))[0]).toMatchObject({ status: "failed", refundTx: null });
  });

  it("refuses when nothing is due: all delivered, not paid, or no such invoice", async () => {
    const delivered = await fulfilledInvoice([item("test-gift-card-code", "10")]);
    const unpaid = await createInvoice({ items: [item("test-gift-card-code-fail", "10")], payer }, database.db);
    await expect(markRefundPaid(database.db, delivered, EVM_TX)).rejects.toThrow(`Invoice ${delivered} has no refund due`);
    await expect(markRefundPaid(database.db, unpaid.id, EVM_TX)).rejects.toThrow(/was not paid/);
    await expect(markRefundPaid(database.db, "inv_nope", EVM_TX)).rejects.toThrow("No invoice inv_nope");
    expect(await listRefundsDue(database.db)).toEqual([]);
  });
});

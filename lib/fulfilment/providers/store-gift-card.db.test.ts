/**
 * The shop's own gift card bought as a catalog product (`store-gift-card`, supplier `store`): sold at face value, one
 * card issued per paid order in the transaction that records the delivery (so exactly one, whatever retries, crashes
 * or a second worker do), its code delivered as the order's code and kept sealed in the database, spendable at once.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProduct } from "@/lib/catalog";
import { STORE_GIFT_CARD_SLUG } from "@/lib/catalog/store-products";
import type { Database } from "@/lib/platform/db";
import { giftCards, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { DomainError } from "@/lib/platform/errors";
import { cardStatement } from "@/lib/gift-cards";
import { codeHash, normalizeCode } from "@/lib/gift-cards/codes";
import { createInvoice, getStatus } from "@/lib/checkout";
import { claimDueOrders, drainDue, fulfilOrder, refundFailedOrders } from "..";
import { fakePayout, item, payInvoice, TEST_PAYER } from "@/test/fulfilment";
import { providerFor } from "./provider-for";
import { storeGiftCardProvider } from "./store-gift-card";
import type { FulfilmentProvider } from "./types";

// A shop with a margin: the store gift card takes none. Read once per test file, before anything asks for the configuration.
process.env.PRICE_MARGIN_BPS = "500";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

/** A paid invoice of one store gift card of `value` US dollars; its order's id. */
async function paidCard(value: string): Promise<{ invoiceId: string; orderId: string }> {
  const inv = await createInvoice({ items: [item(STORE_GIFT_CARD_SLUG, value)], payer: TEST_PAYER }, database.db);
  await payInvoice(database.db, inv.id);
  return { invoiceId: inv.id, orderId: inv.items[0]!.orderId };
}

const cardsOf = (orderId: string) => database.db.select().from(giftCards).where(eq(giftCards.orderId, orderId));

/** The order's code as its payer reads it (the invoice's status), and the order as stored. */
async function delivered(invoiceId: string): Promise<{ code: string; stored: unknown }> {
  const status = await getStatus(database.db, invoiceId, { wallet: TEST_PAYER, proven: true });
  if (typeof status !== "object" || !status.canSeeCodes) throw new Error(`the payer may not read the codes of ${invoiceId}`);
  const code = (status.orders[0]?.redemption as { code?: string } | null)?.code;
  if (!code) throw new Error(`no code delivered for ${invoiceId}`);
  const [row] = await database.db.select({ redemption: orders.redemption }).from(orders).where(eq(orders.invoiceId, invoiceId));
  return { code, stored: row?.redemption };
}

describe(`the store gift card on ${testDriver}`, () => {
  it("is a product of the shop's brand, sold at face value in USDC while other products take the margin", async () => {
    const card = await getProduct(STORE_GIFT_CARD_SLUG, database.db);
    expect(card).toMatchObject({ kind: "gift_card", brand: "x402 Storefront", supplier: "store", currency: "USD", inStock: true, isTest: false });
    expect(card?.packages.map((p) => [p.value, p.priceUsdc])).toEqual([
      ["10", 10_000_000n],
      ["25", 25_000_000n],
      ["50", 50_000_000n],
      ["100", 100_000_000n],
    ]);
    expect((await getProduct("test-gift-card-code", database.db))?.packages[0]?.priceUsdc).toBe(10_500_000n);
    expect((await createInvoice({ items: [item(STORE_GIFT_CARD_SLUG, "25")], payer: TEST_PAYER }, database.db)).priceUsdc).toBe(25_000_000n);
  });

  it("issues one card for a paid order, shows its code to the payer, keeps it only sealed, and the code spends its value", async () => {
    const { invoiceId, orderId } = await paidCard("25");
    await drainDue(database.db);
    const { code, stored } = await delivered(invoiceId);
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    // The database holds no code: the order keeps a sealed copy, the card its hash.
    expect(JSON.stringify(stored)).not.toContain(normalizeCode(code)!);
    expect(stored).toMatchObject({ sealed_code: { hash: codeHash(normalizeCode(code)!) } });
    const cards = await cardsOf(orderId);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ batchId: null, currency: "USD", valueMinor: 2500n, balanceMinor: 2500n, codeHash: codeHash(normalizeCode(code)!) });
    expect(await cardStatement(database.db, code)).toMatchObject({ currency: "USD", value: "25", balance: "25", history: [] });

    // Spent like any of the shop's cards: it pays a 10 USD product at once.
    const spent = await createInvoice({ items: [item("test-gift-card-code", "10")], payer: TEST_PAYER, giftCardCode: code }, database.db);
    expect(spent.paidByCard).toBe(true);
    expect((await cardStatement(database.db, code)).balance).toBe("14.5");
    // Asking again changes nothing: the order is delivered, its code the same.
    await drainDue(database.db);
    expect((await delivered(invoiceId)).code).toBe(code);
    expect(await cardsOf(orderId)).toHaveLength(1);
  });

  it("issues exactly one card when a claim lapses and two workers deliver the same order", async () => {
    const { invoiceId, orderId } = await paidCard("10");
    const now = new Date();
    const [first] = await claimDueOrders(database.db, { limit: 10, lockMs: 1_000, now });
    // The first worker stalls past its lock; a second takes the order over.
    const [second] = await claimDueOrders(database.db, { limit: 10, lockMs: 60_000, now: new Date(now.getTime() + 2_000) });
    expect(first?.id).toBe(orderId);
    expect(second).toMatchObject({ id: orderId, attempts: first!.attempts + 1 });
    const outcomes = await Promise.all([fulfilOrder(database.db, first!, storeGiftCardProvider), fulfilOrder(database.db, second!, storeGiftCardProvider)]);
    expect(outcomes.sort()).toEqual(["delivered", "lost"]);
    const cards = await cardsOf(orderId);
    expect(cards).toHaveLength(1);
    // The card issued is the one whose code the order delivers.
    expect(cards[0]!.codeHash).toBe(codeHash(normalizeCode((await delivered(invoiceId)).code)!));
  });

  it("issues nothing when the delivery is not recorded (a crash or a database failure), and one card when it is retried", async () => {
    const { invoiceId, orderId } = await paidCard("50");
    // The provider answered, and the worker died before recording: nothing was issued.
    const [claimed] = await claimDueOrders(database.db, { limit: 10 });
    await storeGiftCardProvider.deliver(claimed!);
    expect(await cardsOf(orderId)).toHaveLength(0);
    // Its successor's recording transaction fails half-way: rolled back whole, the order still due.
    const failingOnce: FulfilmentProvider = {
      async deliver(order) {
        const d = await storeGiftCardProvider.deliver(order);
        if ("pending" in d || d.failed) return d;
        return {
          ...d,
          record: async (tx) => {
            await d.record!(tx);
            throw new Error("connection lost while recording");
          },
        };
      },
    };
    const later = new Date(Date.now() + 5 * 60_000);
    await expect(drainDue(database.db, { provider: failingOnce, now: later })).rejects.toThrow(/could not be recorded/);
    expect(await cardsOf(orderId)).toHaveLength(0);
    const [row] = await database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    expect(row?.status).toBe("processing");
    // Retried once the claim lapses, by the engine's own provider: one card, its value the order's.
    await drainDue(database.db, { now: new Date(later.getTime() + 5 * 60_000) });
    const { code } = await delivered(invoiceId);
    expect(await cardsOf(orderId)).toHaveLength(1);
    expect((await cardStatement(database.db, code)).balance).toBe("50");
  });

  it("refunds a failed order as usual, with no card issued", async () => {
    const { invoiceId, orderId } = await paidCard("10");
    const broken: FulfilmentProvider = {
      deliver: async () => {
        throw new Error("the database is unreachable");
      },
    };
    await drainDue(database.db, { provider: broken, maxAttempts: 1 });
    const { payout, calls } = fakePayout();
    expect(await refundFailedOrders(database.db, invoiceId, payout)).toMatchObject({ amountUsdc: 10_000_000n });
    expect(calls.map((c) => c.amount)).toEqual([10_000_000n]);
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: "refunded", errorCode: "RETRIES_EXHAUSTED" });
    expect(await cardsOf(orderId)).toHaveLength(0);
  });

  it("cannot be paid with a gift card of the shop, and the card is not touched", async () => {
    const { invoiceId } = await paidCard("10");
    await drainDue(database.db);
    const { code } = await delivered(invoiceId);
    const err = await createInvoice(
      { items: [item("test-gift-card-code", "10"), item(STORE_GIFT_CARD_SLUG, "10")], payer: TEST_PAYER, giftCardCode: code },
      database.db,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: "invalid_param", path: ["gift_card_code"], details: { reason: "store_gift_card" } });
    expect((err as Error).message).toMatch(/cannot pay for x402 Storefront Gift Card/);
    expect(await cardStatement(database.db, code)).toMatchObject({ balance: "10", held: "0", history: [] });
  });

  it("is fulfilled by the shop in every mode", () => {
    expect(providerFor({ supplier: "store" } as Parameters<typeof providerFor>[0], database.db)).toBe(storeGiftCardProvider);
  });
});

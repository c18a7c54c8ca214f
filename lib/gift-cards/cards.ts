import { usdcToCents } from "@/lib/platform/money";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { currencyExponent } from "@/lib/catalog";
import type { FxSource } from "@/lib/catalog";
import type { Db } from "@/lib/platform/db";
import { giftCardHolds, giftCards, invoices, orders } from "@/lib/platform/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { codeHash, normalizeCode, type MintedCode } from "./codes";
import { cardCurrency, centsPaidBy, formatCardValue, minorForCents } from "./money";

export type GiftCard = typeof giftCards.$inferSelect;
export type Hold = typeof giftCardHolds.$inferSelect;

/** The card a code names, or `unknown_gift_card` (a wrong guess: the caller counts it). */
export async function cardByCode(db: Db, code: string, opts: { forUpdate?: boolean; path?: string[] } = {}): Promise<GiftCard> {
  const path = opts.path ?? ["gift_card_code"];
  const normalized = normalizeCode(code);
  const unknown = () => new DomainError("unknown_gift_card", "no gift card has this code.", { path });
  if (!normalized) throw unknown();
  const query = db
    .select()
    .from(giftCards)
    .where(eq(giftCards.codeHash, codeHash(normalized)));
  const [card] = opts.forUpdate ? await query.for("update") : await query;
  if (!card) throw unknown();
  return card;
}

/**
 * Issues the card an order bought (the catalog's store gift card), worth the order's face value, inside the caller's
 * transaction: the one that records the order as delivered (lib/fulfilment), so the card exists exactly when the order
 * is delivered. One card per order: `gift_cards.order_id` is unique, so a second issue for an order fails loudly.
 */
export async function issueOrderCard(tx: Db, card: { orderId: string; currency: string; valueMinor: bigint; minted: MintedCode }): Promise<GiftCard> {
  const [row] = await tx
    .insert(giftCards)
    .values({
      id: newId("gc"),
      codeHash: card.minted.hash,
      codeSealed: card.minted.sealed,
      codeLast4: card.minted.last4,
      orderId: card.orderId,
      currency: card.currency,
      valueMinor: card.valueMinor,
      balanceMinor: card.valueMinor,
    })
    .returning();
  return row!;
}

/**
 * Sets value of a card aside for an invoice, inside the caller's transaction (the one that creates the invoice): as
 * much as pays `dueCents` at today's rate, or all the card has left. The card's row is locked while its balance is read
 * and lowered, so two servers redeeming the same code at once take its value in turn and never more than it holds.
 * Answers what the card pays, in US cents; `gift_card_empty` when it has nothing left.
 */
export async function holdForInvoice(
  tx: Db,
  code: string,
  invoiceId: string,
  dueCents: bigint,
  fx: FxSource,
): Promise<{ card: GiftCard; coversCents: bigint; amountMinor: bigint }> {
  const card = await cardByCode(tx, code, { forUpdate: true });
  let money: ReturnType<typeof cardCurrency>;
  try {
    money = cardCurrency(card.currency, fx);
  } catch {
    // Its currency has no current exchange rate (live rates gone stale): it cannot be valued now, and is not spent.
    throw new DomainError("gift_card_unavailable", `this gift card is in ${card.currency}, which has no current exchange rate: try again later.`, {
      path: ["gift_card_code"],
    });
  }
  const worth = centsPaidBy(card.balanceMinor, money);
  if (worth <= 0n || dueCents <= 0n) throw new DomainError("gift_card_empty", "this gift card has no value left.", { path: ["gift_card_code"] });
  const coversCents = worth < dueCents ? worth : dueCents;
  const amountMinor = minorForCents(coversCents, money, card.balanceMinor);
  const [updated] = await tx
    .update(giftCards)
    .set({ balanceMinor: sql`${giftCards.balanceMinor} - ${amountMinor}` })
    .where(and(eq(giftCards.id, card.id), sql`${giftCards.balanceMinor} >= ${amountMinor}`))
    .returning();
  if (!updated) throw new Error(`Gift card ${card.id} changed under its row lock`);
  await tx.insert(giftCardHolds).values({ giftCardId: card.id, invoiceId, amountMinor, coversCents });
  await tx.update(invoices).set({ giftCardCents: coversCents }).where(eq(invoices.id, invoiceId));
  return { card: updated, coversCents, amountMinor };
}

/** An invoice was paid: its holds are spent (inside the transaction that marks it paid). */
export async function spendHolds(tx: Db, invoiceId: string): Promise<void> {
  await tx
    .update(giftCardHolds)
    .set({ status: "spent", updatedAt: new Date() })
    .where(and(eq(giftCardHolds.invoiceId, invoiceId), eq(giftCardHolds.status, "held")));
}

/**
 * An invoice will not be paid (expired, denied): its holds go back to their cards, each once (the hold's status
 * changes in the same statement that finds it, so a second sweep finds nothing). Inside the caller's transaction.
 */
export async function releaseHolds(tx: Db, invoiceIds: string[]): Promise<number> {
  if (invoiceIds.length === 0) return 0;
  const released = await tx
    .update(giftCardHolds)
    .set({ status: "released", updatedAt: new Date() })
    .where(and(inArray(giftCardHolds.invoiceId, invoiceIds), eq(giftCardHolds.status, "held")))
    .returning({ giftCardId: giftCardHolds.giftCardId, amountMinor: giftCardHolds.amountMinor });
  for (const r of released) {
    await tx
      .update(giftCards)
      .set({ balanceMinor: sql`${giftCards.balanceMinor} + ${r.amountMinor}` })
      .where(eq(giftCards.id, r.giftCardId));
  }
  return released.length;
}

/** What the holder of a code may read: its value, what is left, what is set aside, and every use. */
export type CardStatement = {
  currency: string;
  value: string;
  balance: string;
  held: string;
  history: { invoice_id: string; amount: string; refunded: string; status: Hold["status"]; created_at: string; updated_at: string }[];
};

export async function cardStatement(db: Db, code: string): Promise<CardStatement> {
  const card = await cardByCode(db, code, { path: ["code"] });
  const holds = await db.select().from(giftCardHolds).where(eq(giftCardHolds.giftCardId, card.id)).orderBy(asc(giftCardHolds.createdAt));
  const exp = { exponent: exponentOf(card) };
  const held = holds.filter((h) => h.status === "held").reduce((sum, h) => sum + h.amountMinor, 0n);
  return {
    currency: card.currency,
    value: formatCardValue(card.valueMinor, exp),
    balance: formatCardValue(card.balanceMinor, exp),
    held: formatCardValue(held, exp),
    history: holds.map((h) => ({
      invoice_id: h.invoiceId,
      amount: formatCardValue(h.amountMinor, exp),
      refunded: formatCardValue(h.coversCents > 0n ? (h.amountMinor * h.refundedCents) / h.coversCents : 0n, exp),
      status: h.status,
      created_at: h.createdAt.toISOString(),
      updated_at: h.updatedAt.toISOString(),
    })),
  };
}

// Issued only in currencies with a known exponent (cardCurrency).
const exponentOf = (card: GiftCard) => currencyExponent(card.currency) ?? 2;

/**
 * Gives up to `cents` of a failed order back to the cards that paid its invoice (spent holds), inside the caller's
 * transaction (the one that refunds the order), and answers how many cents went back: the rest of the order is
 * refunded the way the invoice was otherwise paid. Each hold gives back at most what it paid; the card gets the same
 * share of its value (rounded so that a hold given back in full returns exactly what it took).
 */
export async function refundToCards(tx: Db, invoiceId: string, cents: bigint): Promise<bigint> {
  if (cents <= 0n) return 0n;
  const holds = await tx
    .select()
    .from(giftCardHolds)
    .where(and(eq(giftCardHolds.invoiceId, invoiceId), eq(giftCardHolds.status, "spent")))
    .orderBy(asc(giftCardHolds.createdAt))
    .for("update");
  let left = cents;
  for (const h of holds) {
    const room = h.coversCents - h.refundedCents;
    if (room <= 0n || left <= 0n) continue;
    const give = room < left ? room : left;
    const share = (refunded: bigint) => (h.amountMinor * refunded) / h.coversCents;
    const minor = share(h.refundedCents + give) - share(h.refundedCents);
    await tx
      .update(giftCardHolds)
      .set({ refundedCents: h.refundedCents + give, updatedAt: new Date() })
      .where(and(eq(giftCardHolds.giftCardId, h.giftCardId), eq(giftCardHolds.invoiceId, invoiceId)));
    await tx
      .update(giftCards)
      .set({ balanceMinor: sql`${giftCards.balanceMinor} + ${minor}` })
      .where(eq(giftCards.id, h.giftCardId));
    left -= give;
  }
  return cents - left;
}

/**
 * A failed order of an invoice a gift card paid part of: its price goes back to the card first, as far as the card
 * paid, recorded on the order (`refund_gift_card_cents`) in the failure's transaction; the refund of the rest (USDC to
 * the paying wallet, or the balance) pays only what is left. Answers the cents given back.
 */
export async function refundOrderToCards(tx: Db, orderId: string): Promise<bigint> {
  const [row] = await tx
    .select({
      invoiceId: orders.invoiceId,
      priceUsdc: orders.priceUsdc,
      priceCents: orders.priceCents,
      done: orders.refundGiftCardCents,
      card: invoices.giftCardCents,
    })
    .from(orders)
    .innerJoin(invoices, eq(invoices.id, orders.invoiceId))
    .where(eq(orders.id, orderId));
  if (!row || row.card === null || row.done !== null) return 0n;
  const cents = row.priceCents ?? usdcToCents(row.priceUsdc, "down");
  const given = await refundToCards(tx, row.invoiceId, cents);
  await tx.update(orders).set({ refundGiftCardCents: given }).where(eq(orders.id, orderId));
  return given;
}

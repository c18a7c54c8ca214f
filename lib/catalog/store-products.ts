import { productInputSchema, type ValidProductInput } from "./product-input";

/** The shop's own brand: its gift card is sold under it. */
export const STORE_BRAND = "x402 Storefront";
/** The shop's own gift card: a product of the catalog like any other, fulfilled by the shop itself (supplier `store`). */
export const STORE_GIFT_CARD_SLUG = "store-gift-card";
export const STORE_COLORS = { bg: "#111827", fg: "#FACC15" };

/**
 * The products the shop supplies itself, in every network mode: its own gift card, in US dollars, sold at its face
 * value (no margin: it is money kept in the shop). Validated like any import.
 */
export function storeProducts(): ValidProductInput[] {
  return [
    productInputSchema.parse({
      slug: STORE_GIFT_CARD_SLUG,
      name: "x402 Storefront Gift Card",
      kind: "gift_card",
      brand: STORE_BRAND,
      country: "US",
      currency: "USD",
      categories: ["shopping", "gift cards"],
      description:
        "The shop's own gift card, sold at its face value. Spend it on anything in this shop, gift cards, eSIMs and top-ups, " +
        "in one go or over several orders; what is left stays on the card. Delivered as a code right after payment. " +
        "It cannot pay for another x402 Storefront gift card.",
      redemptionInstructions:
        "1. Add what you want to the cart and enter the code as the gift card code at checkout (agents: gift_card_code on " +
        "POST /x402/invoice/create; merchants: payment_method gift_card).\n2. The card pays what it can at the day's rate; " +
        "pay the rest with your wallet.\n3. See what is left on the card at /gift-cards/balance.",
      recipientType: "none",
      popularity: 100,
      packages: ["10", "25", "50", "100"].map((value) => ({ value })),
    }),
  ];
}

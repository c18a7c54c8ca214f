import { currencyExponent } from "@/lib/catalog";
import { issueOrderCard, mintCode } from "@/lib/gift-cards";
import type { Delivery, FulfilmentProvider, OrderToFulfil } from "./types";

const INSTRUCTIONS =
  "Spend the code in this shop: enter it as the gift card code in the cart, send it as gift_card_code to the /x402 API, " +
  "or pay a merchant API invoice with it. Check what is left on it at /gift-cards/balance.";

/**
 * The shop itself, for its own gift card (the catalog's `store-gift-card`): one card per order, worth the order's face
 * value in its currency, with a code made like every card's (lib/gift-cards/codes.ts). Asking again makes a new code
 * and writes nothing: the card is issued by the answer's `record`, in the transaction that records the order as
 * delivered, so only the claim that wins issues one, once. The order keeps the code sealed, as the card does.
 */
export const storeGiftCardProvider: FulfilmentProvider = {
  async deliver(order: OrderToFulfil): Promise<Delivery> {
    if (order.kind !== "gift_card" || currencyExponent(order.currency) === undefined || order.faceValueMinor <= 0n) {
      return {
        failed: true,
        errorCode: "NOT_A_STORE_GIFT_CARD",
        message: `${order.productName} ${order.packageValue} is not a gift card of a value in a currency: the shop issues no card for it.`,
      };
    }
    const minted = mintCode();
    return {
      failed: false,
      redemption: {
        sealed_code: { sealed: minted.sealed, hash: minted.hash },
        instructions: order.redemptionInstructions ?? INSTRUCTIONS,
        extra_fields: {},
      },
      record: async (tx) => {
        await issueOrderCard(tx, { orderId: order.id, currency: order.currency, valueMinor: order.faceValueMinor, minted });
      },
    };
  },
};

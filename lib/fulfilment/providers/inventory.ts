import { formatPackage, sellCode } from "@/lib/catalog";
import type { Db } from "@/lib/platform/db";
import type { Delivery, FulfilmentProvider, OrderToFulfil, Redemption } from "./types";

/**
 * Sells codes the operator imported (`npm run admin -- stock import`): the order hands over the code it reserved
 * at checkout, exactly once (asking again returns the same code). An order left without a code fails for good and
 * is refunded.
 */
export function createInventoryProvider(db: Db, clock: () => Date = () => new Date()): FulfilmentProvider {
  return {
    async deliver(order: OrderToFulfil): Promise<Delivery> {
      const sold = await sellCode(db, order, clock());
      if (!sold)
        return {
          failed: true,
          errorCode: "OUT_OF_STOCK",
          message: `No code is left for ${order.productName} ${formatPackage(order.packageValue, order.currency)}.`,
        };
      const redemption: Redemption = {
        code: sold.code,
        ...(sold.pin ? { pin: sold.pin } : {}),
        ...(sold.expirationDate ? { expiration_date: sold.expirationDate } : {}),
        ...(order.redemptionInstructions ? { instructions: order.redemptionInstructions } : {}),
        extra_fields: {},
      };
      if (order.recipientType === "email" && order.recipient) redemption.extra_fields.recipient_email = order.recipient;
      return { failed: false, redemption };
    },
  };
}

import type { Db } from "@/lib/db";
import { demoSupply } from "@/lib/catalog/supply";
import { demoProvider } from "./demo";
import { createInventoryProvider } from "./inventory";
import type { FulfilmentProvider, OrderToFulfil } from "./types";

const noSupplier: FulfilmentProvider = {
  deliver: async () => ({ failed: true, errorCode: "NO_SUPPLIER", message: "This product has no supplier in this network mode; the order is refunded." }),
};

/** Which supplier fulfils an order: the one its product had when the order was placed. */
export function providerFor(order: OrderToFulfil, db: Db): FulfilmentProvider {
  switch (order.supplier) {
    case "inventory":
      return createInventoryProvider(db);
    case "demo":
      // Never outside the devnet: a real payment must not buy a made-up code (checkout refuses it before this).
      return demoSupply() ? demoProvider() : noSupplier;
    case "upstream":
      return noSupplier;
  }
}

import type { Db } from "@/lib/db";
import { demoProvider } from "./demo";
import { createInventoryProvider } from "./inventory";
import type { FulfilmentProvider, OrderToFulfil } from "./types";

/** Which supplier fulfils an order: the one its product had when the order was placed. */
export function providerFor(order: OrderToFulfil, db: Db): FulfilmentProvider {
  switch (order.supplier) {
    case "inventory":
      return createInventoryProvider(db);
    case "demo":
      return demoProvider();
  }
}

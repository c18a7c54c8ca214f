import { demoProvider } from "./demo";
import type { FulfilmentProvider, OrderToFulfil } from "./types";

/**
 * Which supplier fulfils an order. Every product is the demo supplier's for now; the inventory provider (codes the
 * operator imported per product and package) slots in here by product, and an upstream supplier after it.
 */
export function providerFor(order: OrderToFulfil): FulfilmentProvider {
  void order;
  return demoProvider();
}

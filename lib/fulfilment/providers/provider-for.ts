import type { Db } from "@/lib/platform/db";
import { demoSupply } from "@/lib/catalog";
import { demoProvider } from "./demo";
import { createInventoryProvider } from "./inventory";
import { storeGiftCardProvider } from "./store-gift-card";
import type { FulfilmentProvider, OrderToFulfil } from "./types";

const noSupplier: FulfilmentProvider = {
  deliver: async () => ({ failed: true, errorCode: "NO_SUPPLIER", message: "This product has no supplier in this network mode; the order is refunded." }),
};

/**
 * The upstream supplier's provider over a database: it lives in lib/supply (`upstreamProvider`), above this layer, as
 * a client of the upstream's API, and whoever runs the fulfilment passes it (lib/server: the worker and the round).
 */
export type UpstreamProvider = (db: Db) => FulfilmentProvider;

/** An upstream order where none was passed (a test's drain): a transient failure, retried later like any other. */
const noUpstreamPassed: FulfilmentProvider = {
  deliver: async () => {
    throw new Error("no upstream provider was passed to this fulfilment: the server's worker and round pass lib/supply's");
  },
};

/** Which supplier fulfils an order: the one its product had when the order was placed. */
export function providerFor(order: OrderToFulfil, db: Db, upstream?: UpstreamProvider): FulfilmentProvider {
  switch (order.supplier) {
    case "inventory":
      return createInventoryProvider(db);
    case "demo":
      // Never outside the devnet: a real payment must not buy a made-up code (checkout refuses it before this).
      return demoSupply() ? demoProvider() : noSupplier;
    case "upstream":
      return upstream?.(db) ?? noUpstreamPassed;
    case "store":
      // The shop's own gift card, in every network mode: the shop issues it itself.
      return storeGiftCardProvider;
  }
}

import type { Db } from "@/lib/platform/db";
import { demoSupply } from "@/lib/catalog";
import { demoProvider } from "./demo";
import { createInventoryProvider } from "./inventory";
import { storeGiftCardProvider } from "./store-gift-card";
import type { FulfilmentProvider, OrderToFulfil } from "./types";

const noSupplier: FulfilmentProvider = {
  deliver: async () => ({ failed: true, errorCode: "NO_SUPPLIER", message: "This product has no supplier in this network mode; the order is refunded." }),
};

/** Makes the upstream supplier's provider over a database (lib/supply/purchase.ts). */
export type UpstreamProviderFactory = (db: Db) => FulfilmentProvider;
// On globalThis: the server's start-up and the routes may load this module in bundles of their own.
const handed = globalThis as typeof globalThis & { __storefrontUpstreamProvider?: UpstreamProviderFactory };

/**
 * Hands over the upstream supplier's purchases (lib/wiring.ts does, once per process): they live in lib/supply, above
 * this layer, as a client of the upstream's API.
 */
export function setUpstreamProvider(make: UpstreamProviderFactory): void {
  handed.__storefrontUpstreamProvider = make;
}

/** An upstream order where nothing was handed over: a wiring fault, retried (never refunded for it) until wired. */
const unwired: FulfilmentProvider = {
  deliver: async () => {
    throw new Error("no upstream provider is wired: load lib/wiring.ts at start-up");
  },
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
      return handed.__storefrontUpstreamProvider?.(db) ?? unwired;
    case "store":
      // The shop's own gift card, in every network mode: the shop issues it itself.
      return storeGiftCardProvider;
  }
}

import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { products, settings } from "@/lib/db/schema";
import { productInputSchema, type ValidProductInput } from "./product-input";
import { upsertProducts } from "./store";

/** The shop's own brand: its gift card is sold under it. */
export const STORE_BRAND = "x402 Storefront";
/** The shop's own gift card: a product of the catalog like any other, fulfilled by the shop itself (supplier `store`). */
export const STORE_GIFT_CARD_SLUG = "store-gift-card";
export const STORE_COLORS = { bg: "#111827", fg: "#FACC15" };

const SEEDED_KEY = "catalog.store_products.seeded";

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

/**
 * Adds the shop's own products to the catalog, once per database and whatever the mode or the demo seeding (they are
 * not demo stock): after that they are the operator's, and one the operator deletes stays deleted. A slug the catalog
 * already holds (the operator's own product) is left as it is.
 */
export async function seedStoreProductsOnce(db: Db): Promise<void> {
  const [marker] = await db.select().from(settings).where(eq(settings.key, SEEDED_KEY));
  if (marker) return;
  const wanted = storeProducts();
  const slugs = wanted.map((p) => p.slug);
  const taken = new Set((await db.select({ id: products.id }).from(products).where(inArray(products.id, slugs))).map((r) => r.id));
  const seeded = await upsertProducts(
    db,
    wanted.filter((p) => !taken.has(p.slug)),
    { supplier: "store" },
  );
  await db
    .insert(settings)
    .values({ key: SEEDED_KEY, value: { at: new Date().toISOString(), products: seeded } })
    .onConflictDoNothing();
}

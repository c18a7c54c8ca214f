import { eq, inArray } from "drizzle-orm";
import { config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db/client";
import { products, settings } from "@/lib/platform/db/schema";
import { demoCatalog, testFamily } from "./demo/generate";
import { productInputSchema } from "./product-input";
import { countProducts, upsertProducts } from "./store";
import { storeProducts } from "./store-products";

const SEEDED_KEY = "catalog.seeded";
const STORE_SEEDED_KEY = "catalog.store_products.seeded";

/** The demo catalog and the test products, validated like any import. */
export function demoProducts() {
  return [...demoCatalog(), ...testFamily()].map((p) => productInputSchema.parse(p));
}

/**
 * Seeds the demo catalog into an empty database, once per database: after the first start (seeded or not)
 * the catalog belongs to the operator, and a product they delete stays deleted. Then the shop's own products (its
 * gift card), in every mode, once too.
 */
export async function seedCatalogOnce(db: Db, enabled = config().seedDemoCatalog): Promise<void> {
  await seedDemoCatalogOnce(db, enabled);
  await seedStoreProductsOnce(db);
}

async function seedDemoCatalogOnce(db: Db, enabled: boolean): Promise<void> {
  const [marker] = await db.select().from(settings).where(eq(settings.key, SEEDED_KEY));
  if (marker) return;
  let seeded = 0;
  if (enabled && (await countProducts(db)) === 0) seeded = await upsertProducts(db, demoProducts());
  await db
    .insert(settings)
    .values({ key: SEEDED_KEY, value: { at: new Date().toISOString(), products: seeded } })
    .onConflictDoNothing();
}

/**
 * Adds the shop's own products to the catalog, once per database and whatever the mode or the demo seeding (they are
 * not demo stock): after that they are the operator's, and one the operator deletes stays deleted. A slug the catalog
 * already holds (the operator's own product) is left as it is.
 */
async function seedStoreProductsOnce(db: Db): Promise<void> {
  const [marker] = await db.select().from(settings).where(eq(settings.key, STORE_SEEDED_KEY));
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
    .values({ key: STORE_SEEDED_KEY, value: { at: new Date().toISOString(), products: seeded } })
    .onConflictDoNothing();
}

import { eq } from "drizzle-orm";
import { getDb, type Db } from "@/lib/platform/db";
import { products } from "@/lib/platform/db/schema";
import { fallbackColors, productCardSvg, type CardColors } from "./product-image";

let colors: Promise<Record<string, CardColors>> | undefined;

async function brandColors(): Promise<Record<string, CardColors>> {
  colors ??= import("./demo/generate").then((m) => m.brandColors());
  return colors;
}

/** The SVG picture of a product, or null when there is no such product. */
export async function productImage(slug: string, db?: Db): Promise<string | null> {
  db ??= await getDb();
  const [p] = await db
    .select({ brand: products.brand, kind: products.kind, country: products.country, region: products.region })
    .from(products)
    .where(eq(products.id, slug));
  if (!p) return null;
  const known = (await brandColors())[p.brand];
  return productCardSvg({
    brand: p.brand,
    kind: p.kind,
    label: p.country ?? p.region ?? "",
    colors: known ?? fallbackColors(p.brand),
  });
}

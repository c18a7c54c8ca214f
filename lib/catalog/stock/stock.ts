import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { catalogChanged } from "@/lib/catalog/snapshot";
import { getProduct } from "@/lib/catalog/get-product";
import { parsePackageId } from "@/lib/catalog/package-id";
import type { Db } from "@/lib/platform/db";
import { queryRows } from "@/lib/platform/db/client";
import { inventoryCodes, orders, productPackages, products } from "@/lib/platform/db/schema";
import type { StockCode } from "./stock-file";
import { DomainError } from "@/lib/platform/errors";

export type StockImportReport = { productId: string; packageValue: string; imported: number; alreadyStocked: number };

/**
 * Adds codes to the stock of one product package, in one transaction, and makes the product's orders inventory
 * orders from then on. A code already stocked for that package is left as it is (re-importing a file adds nothing).
 * Only gift cards take imported codes: eSIM profiles and top-ups come from their operators, and the shop's own gift
 * card from the shop.
 */
export async function importStock(
  db: Db,
  input: { productId: string; packageValue: string; codes: StockCode[]; batch: string; now?: Date },
): Promise<StockImportReport> {
  const product = await getProduct(input.productId, db);
  if (!product) throw new DomainError("stock_refused", `No product has the slug ${JSON.stringify(input.productId)}`);
  if (product.kind !== "gift_card")
    throw new DomainError("stock_refused", `${product.slug} is ${product.kind === "esim" ? "an eSIM" : "a top-up"}: only gift cards take imported codes`);
  if (product.supplier === "store")
    throw new DomainError("stock_refused", `${product.slug} is the shop's own gift card: the shop issues its cards itself, and takes no imported codes`);
  const asId = parsePackageId(input.packageValue);
  const value = asId && asId.productId === product.slug ? asId.value : input.packageValue;
  const pkg = product.packages.find((p) => p.value === value);
  if (!pkg) {
    const offered = product.packages.map((p) => JSON.stringify(p.value)).join(", ") || "none";
    throw new DomainError("stock_refused", `${JSON.stringify(input.packageValue)} is not a package of ${product.slug}: its packages are ${offered}`);
  }
  const now = input.now ?? new Date();
  const imported = await db.transaction(async (tx) => {
    await tx.update(products).set({ supplier: "inventory", updatedAt: now }).where(eq(products.id, product.slug));
    let count = 0;
    for (let i = 0; i < input.codes.length; i += 500) {
      const rows = input.codes.slice(i, i + 500).map((c) => ({
        productId: product.slug,
        packageValue: pkg.value,
        code: c.code,
        pin: c.pin,
        expirationDate: c.expirationDate,
        batch: input.batch,
        importedAt: now,
      }));
      const inserted = await tx.insert(inventoryCodes).values(rows).onConflictDoNothing().returning({ id: inventoryCodes.id });
      count += inserted.length;
    }
    return count;
  });
  // The product is an inventory product from now on: this process reads the catalog again at once.
  catalogChanged(db);
  return { productId: product.slug, packageValue: pkg.value, imported, alreadyStocked: input.codes.length - imported };
}

export type StockLevel = {
  productId: string;
  productName: string;
  packageValue: string;
  /** Free to sell. */
  available: number;
  /** Held by unpaid invoices, or by paid orders not yet delivered. */
  reserved: number;
  sold: number;
};

/**
 * Stock per package of every inventory product (or of one), packages in catalog order; a package the catalog no
 * longer lists still shows while it has codes.
 */
export async function stockLevels(db: Db, productId?: string): Promise<StockLevel[]> {
  const rows = await queryRows<{ product_id: string; name: string; package_value: string; available: number; reserved: number; sold: number }>(
    db,
    sql`
    WITH packages AS (
      SELECT p.id AS product_id, p.name, pp.value AS package_value, pp.position
      FROM ${products} p JOIN ${productPackages} pp ON pp.product_id = p.id
      WHERE p.supplier = 'inventory'
      UNION
      SELECT c.product_id, p.name, c.package_value, 2147483647
      FROM ${inventoryCodes} c JOIN ${products} p ON p.id = c.product_id
    )
    SELECT k.product_id, k.name, k.package_value,
      count(c.id) FILTER (WHERE c.id IS NOT NULL AND c.order_id IS NULL)::int AS available,
      count(c.id) FILTER (WHERE c.order_id IS NOT NULL AND c.sold_at IS NULL)::int AS reserved,
      count(c.id) FILTER (WHERE c.sold_at IS NOT NULL)::int AS sold
    FROM (SELECT product_id, name, package_value, min(position) AS position FROM packages GROUP BY 1, 2, 3) k
    LEFT JOIN ${inventoryCodes} c ON c.product_id = k.product_id AND c.package_value = k.package_value
    ${productId ? sql`WHERE k.product_id = ${productId}` : sql``}
    GROUP BY k.product_id, k.name, k.package_value, k.position
    ORDER BY k.product_id, k.position, k.package_value`,
  );
  return rows.map((r) => ({
    productId: r.product_id,
    productName: r.name,
    packageValue: r.package_value,
    available: Number(r.available),
    reserved: Number(r.reserved),
    sold: Number(r.sold),
  }));
}

/**
 * Reserves one free code for an order, inside the caller's transaction (invoice creation). `SKIP LOCKED` lets
 * concurrent checkouts take different codes without waiting on each other; returns false when none is free.
 */
export async function reserveCode(tx: Db, order: { id: string; productId: string; packageValue: string }, now: Date): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`
    UPDATE ${inventoryCodes} SET order_id = ${order.id}, reserved_at = ${now}
    WHERE id = (
      SELECT id FROM ${inventoryCodes}
      WHERE product_id = ${order.productId} AND package_value = ${order.packageValue} AND order_id IS NULL
      ORDER BY id LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`,
  );
  return rows.length === 1;
}

/** Frees the codes that the orders of these invoices held but never received (expired invoices). */
export async function releaseCodes(tx: Db, invoiceIds: string[]): Promise<number> {
  if (invoiceIds.length === 0) return 0;
  const released = await tx
    .update(inventoryCodes)
    .set({ orderId: null, reservedAt: null })
    .where(
      and(
        isNull(inventoryCodes.soldAt),
        inArray(inventoryCodes.orderId, tx.select({ id: orders.id }).from(orders).where(inArray(orders.invoiceId, invoiceIds))),
      ),
    )
    .returning({ id: inventoryCodes.id });
  return released.length;
}

/**
 * Hands over the code an order holds, marking it sold (once: asking again gives the same code). An order whose
 * reservation is missing takes a free code now; null when there is none.
 */
export async function sellCode(db: Db, order: { id: string; productId: string; packageValue: string }, now: Date): Promise<StockCode | null> {
  const sell = () =>
    db
      .update(inventoryCodes)
      .set({ soldAt: sql`coalesce(${inventoryCodes.soldAt}, ${now})` })
      .where(eq(inventoryCodes.orderId, order.id))
      .returning({ code: inventoryCodes.code, pin: inventoryCodes.pin, expirationDate: inventoryCodes.expirationDate });
  let [sold] = await sell();
  if (!sold && (await db.transaction((tx) => reserveCode(tx as unknown as Db, order, now)))) [sold] = await sell();
  return sold ?? null;
}

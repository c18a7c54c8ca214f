import { asc, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { productPackages, products } from "@/lib/platform/db/schema";
import { fxSource } from "./fx";
import { syncFxSource } from "./fx-store";

/** The search columns (the text, its tsvector, the keys): the database keeps them for text search, the snapshot leaves them. */
type SearchColumn = "searchText" | "searchVector" | "titleKey" | "brandKey";
const SEARCH_COLUMNS: ReadonlySet<string> = new Set<SearchColumn>(["searchText", "searchVector", "titleKey", "brandKey"]);
/** Every column but the search ones: what the snapshot keeps of a product. */
const snapshotColumns = Object.fromEntries(Object.entries(getTableColumns(products)).filter(([k]) => !SEARCH_COLUMNS.has(k))) as Omit<
  ReturnType<typeof getTableColumns<typeof products>>,
  SearchColumn
>;
export type ProductRow = Omit<typeof products.$inferSelect, SearchColumn>;
export type PackageRow = typeof productPackages.$inferSelect;

/**
 * The catalog as this process holds it: every product row with its packages, by id, and in the order the shop
 * browses them (most popular first, then by name). Stock is not in it: codes are sold all the time, and the readers
 * count the free codes of the inventory products they show (see get-product.ts).
 */
export type CatalogSnapshot = {
  rows: Map<string, ProductRow>;
  packages: Map<string, PackageRow[]>;
  /** Most popular first, then by name (code point order). */
  browseOrder: ProductRow[];
  /** What the snapshot was read at: a stamp of the products table (see `readStamp`). */
  stamp: string;
};

/**
 * How long a snapshot is used before the table's stamp is looked at again. Imports on this process drop its snapshot
 * at once (`catalogChanged`); another server's import is seen within this long.
 */
const CHECK_MS = 1_000;

type Held = { snapshot: Promise<CatalogSnapshot>; checkedAt: number };
// One per database (tests open several in one process); on globalThis so that every bundle of the server shares it.
const store = globalThis as typeof globalThis & { __storefrontCatalog?: WeakMap<object, Held> };
const held = () => (store.__storefrontCatalog ??= new WeakMap());

/**
 * The catalog of `db`, read once and kept: a request that finds it older than a second asks the products table for
 * its stamp (one small query) and reads the catalog again only when that changed. Products and packages change only
 * through imports, which bump `updated_at` (or remove rows), so the stamp tells every server of a change.
 */
export async function catalogSnapshot(db: Db, now = Date.now()): Promise<CatalogSnapshot> {
  // The rates its prices are computed with: live ones (FX_RATES_URL) as stored by any server, else the shipped table.
  await syncFxSource(db);
  const map = held();
  const current = map.get(db);
  if (current && now - current.checkedAt < CHECK_MS) return current.snapshot;
  if (current) {
    // Looked at once per second whatever the traffic: the check itself is shared by concurrent requests.
    current.checkedAt = now;
    const known = await current.snapshot.catch(() => undefined);
    const stamp = await readStamp(db);
    if (known && known.stamp === stamp) return known;
  }
  const loading = loadSnapshot(db);
  map.set(db, { snapshot: loading, checkedAt: now });
  loading.catch(() => {
    if (map.get(db)?.snapshot === loading) map.delete(db);
  });
  return loading;
}

/** Drops this process's snapshot of `db` after a change it made (an import, a stock import, a removal). */
export function catalogChanged(db: Db): void {
  held().delete(db);
}

/** A stamp of the products table that any write to it changes: the number of rows and the sum of their update times. */
async function readStamp(db: Db): Promise<string> {
  const [row] = await db
    .select({ stamp: sql<string>`count(*)::text || ':' || coalesce(sum(extract(epoch from ${products.updatedAt})), 0)::text` })
    .from(products);
  return row?.stamp ?? "";
}

async function loadSnapshot(db: Db): Promise<CatalogSnapshot> {
  // The stamp first: a write between the two reads makes the next check read the catalog again, never miss it.
  const stamp = await readStamp(db);
  const [rows, pkgs] = await Promise.all([
    db.select(snapshotColumns).from(products),
    db.select().from(productPackages).orderBy(asc(productPackages.productId), asc(productPackages.position)),
  ]);
  const packages = new Map<string, PackageRow[]>();
  for (const p of pkgs) {
    const list = packages.get(p.productId);
    if (list) list.push(p);
    else packages.set(p.productId, [p]);
  }
  const browseOrder = [...rows].sort((a, b) => b.popularity - a.popularity || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { rows: new Map(rows.map((r) => [r.id, r])), packages, browseOrder, stamp };
}

/**
 * Whether a product can be priced now: its currency has an exchange rate (live rates too old, or without that
 * currency, leave it unavailable rather than mispriced). Readers leave out the products that cannot.
 */
export function priceable(row: Pick<ProductRow, "currency">): boolean {
  return fxSource().usdPerUnit(row.currency) !== undefined;
}

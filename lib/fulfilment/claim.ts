import { and, asc, eq, gt, inArray, isNotNull, lte, not, sql } from "drizzle-orm";
import { claimableIds } from "@/lib/db/claim";
import { queryRows } from "@/lib/db/client";
import { claimHolder, holderAlive } from "@/lib/db/presence";
import type { Db } from "@/lib/db";
import { invoices, orders, productPackages, products } from "@/lib/db/schema";
import type { OrderToFulfil } from "./providers/types";

/**
 * An order this worker holds until `lockedUntil`. `attempts` (after the claim's increment) identifies the claim:
 * a later claim of the same order has a higher count, so a worker whose claim lapsed cannot overwrite its successor.
 * `dueAt` is the order's due time when it was claimed: a different one was set while the claim held it.
 */
export type ClaimedOrder = OrderToFulfil & { attempts: number; lockedUntil: Date; dueAt: Date };

/** How long a claim holds an order: far longer than a delivery may take (see PROVIDER_TIMEOUT_MS). */
export const DEFAULT_LOCK_MS = 2 * 60_000;

/**
 * Claims up to `limit` due orders: pending or processing, due (`run_at <= now`; null until the invoice is paid), and
 * not held by a live claim (`claimableIds`: concurrent workers take disjoint sets; a dead worker's claim lapses). The invoices of the claimed orders
 * move from `paid` to `fulfilling` in the same transaction. The claims name `holder` (by default this process's
 * presence on PostgreSQL, lib/db/presence.ts; none elsewhere): once it is gone, `releaseDeadClaims` frees them.
 */
export async function claimDueOrders(db: Db, opts: { limit: number; lockMs?: number; now?: Date; holder?: number | null }): Promise<ClaimedOrder[]> {
  const now = opts.now ?? new Date();
  const lockedUntil = new Date(now.getTime() + (opts.lockMs ?? DEFAULT_LOCK_MS));
  const lockedBy = opts.holder === undefined ? claimHolder() : opts.holder;
  return db.transaction(async (tx) => {
    const ids = await claimableIds(
      tx,
      { table: orders, id: orders.id, lockedUntil: orders.lockedUntil, order: orders.runAt },
      { due: and(inArray(orders.status, ["created", "processing"]), lte(orders.runAt, now)), limit: opts.limit, now },
    );
    if (ids.length === 0) return [];

    const claimed = await tx
      .update(orders)
      .set({ status: "processing", lockedUntil, lockedBy, attempts: sql`${orders.attempts} + 1`, updatedAt: now })
      .where(inArray(orders.id, ids))
      .returning({ id: orders.id, invoiceId: orders.invoiceId, attempts: orders.attempts });

    // Sorted, so that concurrent claims lock shared invoices in the same order.
    const invoiceIds = [...new Set(claimed.map((c) => c.invoiceId))].sort();
    await tx
      .update(invoices)
      .set({ status: "fulfilling", deliveryStatus: "delivering", updatedAt: now })
      .where(and(inArray(invoices.id, invoiceIds), eq(invoices.status, "paid")));

    const rows = await tx
      .select({
        id: orders.id,
        invoiceId: orders.invoiceId,
        productId: orders.productId,
        productName: orders.productName,
        kind: orders.productKind,
        packageValue: orders.packageValue,
        faceValueMinor: orders.faceValueMinor,
        currency: orders.currency,
        recipient: orders.recipient,
        supplier: orders.supplier,
        createdAt: orders.createdAt,
        attempts: orders.attempts,
        runAt: orders.runAt,
        brand: products.brand,
        country: products.country,
        recipientType: products.recipientType,
        redemptionInstructions: products.redemptionInstructions,
        dataMb: productPackages.dataMb,
        validityDays: productPackages.validityDays,
      })
      .from(orders)
      // Left joins: an order outlives its product's removal from the catalog and must still be fulfilled.
      .leftJoin(products, eq(products.id, orders.productId))
      .leftJoin(productPackages, and(eq(productPackages.productId, orders.productId), eq(productPackages.value, orders.packageValue)))
      .where(inArray(orders.id, ids))
      .orderBy(asc(orders.invoiceId), asc(orders.position));
    // A claimed order was due (run_at <= now), so its run_at is set.
    return rows.map(({ runAt, ...r }) => ({ ...r, lockedUntil, dueAt: runAt ?? now }));
  });
}

/**
 * Frees the live claims of unfinished orders, and answers their ids. Only for a process that holds its database
 * alone (the embedded one: lib/db/lock.ts lets one process open it): a claim it finds when it starts was made by a
 * process that has ended (killed in a delivery), and would hold its order until it lapses (DEFAULT_LOCK_MS). Freed,
 * the order is delivered again at once, as it would be then: a provider asked again gives the same outcome (the
 * upstream's Idempotency-Key, the code reserved for the order). Never on a database that other servers share.
 */
export async function releaseClaims(db: Db, now = new Date()): Promise<string[]> {
  const freed = await db
    .update(orders)
    .set({ lockedUntil: null, lockedBy: null })
    .where(and(inArray(orders.status, ["created", "processing"]), gt(orders.lockedUntil, now)))
    .returning({ id: orders.id });
  return freed.map((o) => o.id);
}

/** The database server started this recently: every presence lost its session with it and may be opening it again. */
const RESTART_GRACE_MS = 30_000;

export type ReleaseDeadOptions = {
  now?: Date;
  /**
   * A claim is freed only once its holder has been seen gone for this long by this process (the upkeep loop passes
   * some seconds: a live server whose connection was cut is back under the same key by then). 0 frees at once (at start).
   */
  graceMs?: number;
  /** Nothing is freed within this long of the database server's own start (RESTART_GRACE_MS). */
  restartGraceMs?: number;
};

/** Claims seen with a gone holder, per database: `order id:holder` -> first seen (ms). */
const seenGone = new WeakMap<Db, Map<string, number>>();

/**
 * Frees the live claims of unfinished orders whose holder has ended, and answers their ids: on PostgreSQL, which
 * several servers may share, a claim names its server's presence (lib/db/presence.ts), an advisory lock that
 * PostgreSQL drops with the server's session when the server ends. A claim whose holder's lock no session holds was made
 * by a process that ended (killed in a delivery); freed, its order is delivered again at once rather than when the
 * claim lapses (DEFAULT_LOCK_MS), as `releaseClaims` does on the embedded database. A live server's claims, and
 * claims that name no holder (PGlite, Vercel's rounds), are left to their lease. A live server can look gone for a
 * moment (its session cut, the database server restarted): `graceMs` and `restartGraceMs` wait that out.
 */
export async function releaseDeadClaims(db: Db, opts: ReleaseDeadOptions = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const restartGraceMs = opts.restartGraceMs ?? RESTART_GRACE_MS;
  if (restartGraceMs > 0) {
    const [row] = await queryRows<{ up_ms: number }>(db, sql`SELECT (extract(epoch from now() - pg_postmaster_start_time()) * 1000)::float8 AS up_ms`);
    if (row && Number(row.up_ms) < restartGraceMs) return [];
  }
  const dead = and(
    inArray(orders.status, ["created", "processing"]),
    gt(orders.lockedUntil, now),
    isNotNull(orders.lockedBy),
    not(holderAlive(orders.lockedBy)),
  );
  const graceMs = opts.graceMs ?? 0;
  let ids: string[] | undefined;
  if (graceMs > 0) {
    const gone = await db.select({ id: orders.id, lockedBy: orders.lockedBy }).from(orders).where(dead);
    const seen = seenGone.get(db) ?? new Map<string, number>();
    seenGone.set(db, seen);
    const current = new Map(gone.map((o) => [`${o.id}:${o.lockedBy}`, o.id]));
    for (const key of seen.keys()) if (!current.has(key)) seen.delete(key);
    ids = [];
    for (const [key, id] of current) {
      const first = seen.get(key);
      if (first === undefined) seen.set(key, now.getTime());
      else if (now.getTime() - first >= graceMs) ids.push(id);
    }
    if (ids.length === 0) return [];
  }
  const freed = await db
    .update(orders)
    .set({ lockedUntil: null, lockedBy: null })
    .where(ids ? and(dead, inArray(orders.id, ids)) : dead)
    .returning({ id: orders.id });
  return freed.map((o) => o.id);
}

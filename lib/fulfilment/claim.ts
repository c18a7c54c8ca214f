import { and, asc, eq, gt, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import { claimableIds, databaseJustStarted, goneLongEnough, heldBy, RESTART_GRACE_MS, type ClaimScope } from "@/lib/platform/db/claim";
import { claimHolder } from "@/lib/platform/db/presence";
import type { Db } from "@/lib/platform/db";
import { invoices, orders, productPackages, products } from "@/lib/platform/db/schema";
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
 * presence on PostgreSQL, lib/platform/db/presence.ts; none elsewhere): once it is gone, `releaseDeadClaims` frees them.
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
 * An order held by a claim that a release may free: an unfinished order's delivery, or a failed order's refund whose
 * transfer is stored (signed, maybe sent: whoever takes it next asks the chain and sends the same bytes again, so it is
 * paid once). A failed order whose refund waits after an error is not held but backed off, and left to its time.
 */
const heldWork = (now: Date) =>
  and(gt(orders.lockedUntil, now), or(inArray(orders.status, ["created", "processing"]), and(eq(orders.status, "failed"), isNotNull(orders.refundRaw))));

/**
 * Frees the claims of `scope` (lib/platform/db/claim.ts ClaimScope) on orders (deliveries and refunds in progress), and answers
 * their ids: `all` only for a process that holds its database alone (the embedded one: lib/platform/db/lock.ts lets one
 * process open it; a claim it finds at start was made by a process that ended), `{ holder }` for this server's own
 * claims at its stop. Freed, an order is delivered or its refund followed at once rather than when its claim lapses
 * (DEFAULT_LOCK_MS, REFUND_LOCK_MS): a provider asked again gives the same outcome (the upstream's Idempotency-Key, the
 * code reserved for the order), a stored refund transfer is sent again as the same bytes.
 */
export async function releaseClaims(db: Db, now = new Date(), scope: Exclude<ClaimScope, "dead"> = "all"): Promise<string[]> {
  const freed = await db
    .update(orders)
    .set({ lockedUntil: null, lockedBy: null })
    .where(and(heldWork(now), heldBy(orders.lockedBy, scope)))
    .returning({ id: orders.id });
  return freed.map((o) => o.id);
}

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

/**
 * Frees the claims on orders (deliveries and refunds in progress) whose holder has ended, and answers their ids: on
 * PostgreSQL, which several servers may share, a claim names its server's presence (lib/platform/db/presence.ts), an advisory
 * lock that PostgreSQL drops with the server's session when the server ends. A claim whose holder's lock no session
 * holds was made by a process that ended (killed in a delivery or a refund); freed, its order is taken again at once
 * rather than when the claim lapses, as `releaseClaims` does on the embedded database. A live server's claims, and
 * claims that name no holder (PGlite, Vercel's rounds), are left to their lease. A live server can look gone for a
 * moment (its session cut, the database server restarted): `graceMs` and `restartGraceMs` wait that out.
 */
export async function releaseDeadClaims(db: Db, opts: ReleaseDeadOptions = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  if (await databaseJustStarted(db, opts.restartGraceMs ?? RESTART_GRACE_MS)) return [];
  const dead = and(heldWork(now), heldBy(orders.lockedBy, "dead"));
  const found = await db.select({ id: orders.id, holder: orders.lockedBy }).from(orders).where(dead);
  const ids = goneLongEnough(db, "orders", found, now, opts.graceMs ?? 0);
  if (ids.length === 0) return [];
  const freed = await db
    .update(orders)
    .set({ lockedUntil: null, lockedBy: null })
    .where(and(dead, inArray(orders.id, ids)))
    .returning({ id: orders.id });
  return freed.map((o) => o.id);
}

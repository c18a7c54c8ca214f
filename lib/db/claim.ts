import { and, asc, isNull, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

/** Not held by a live claim: its `locked_until` is unset or past. */
export const notHeld = (lockedUntil: PgColumn, now: Date) => or(isNull(lockedUntil), lt(lockedUntil, now));

/**
 * The ids of up to `limit` rows that are `due` and not held by a live claim, oldest `order` first, locked
 * `FOR UPDATE SKIP LOCKED` in the caller's transaction: concurrent workers take disjoint sets without waiting, and a
 * claim whose worker died lapses at its `locked_until`. The caller then marks them claimed in the same transaction.
 */
export async function claimableIds(
  tx: DbOrTx,
  rows: { table: PgTable; id: PgColumn; lockedUntil: PgColumn; order: PgColumn },
  opts: { due: SQL | undefined; limit: number; now: Date },
): Promise<string[]> {
  const found = await tx
    .select({ id: rows.id })
    .from(rows.table)
    .where(and(opts.due, notHeld(rows.lockedUntil, opts.now)))
    .orderBy(asc(rows.order))
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  return found.map((r) => String(r.id));
}

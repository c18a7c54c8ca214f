import { and, asc, eq, isNotNull, isNull, lt, not, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { queryRows, type Db, type DbOrTx } from "./client";
import { holderAlive } from "./presence";

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

/** Claim holders seen gone, per database and kind of claim: `id:holder` -> when first seen (ms). */
const seenGone = new WeakMap<object, Map<string, Map<string, number>>>();

/**
 * Of the claims found with a gone holder now, those whose holder has been seen gone for `graceMs` by this process (0:
 * all of them, at once): a live server can look gone for a moment (its presence session cut and opened again under
 * the same key, lib/platform/db/presence.ts), and is back within a few seconds.
 */
export function goneLongEnough(db: object, kind: string, found: { id: string; holder: number | null }[], now: Date, graceMs: number): string[] {
  if (graceMs <= 0) return found.map((f) => f.id);
  const kinds = seenGone.get(db) ?? new Map<string, Map<string, number>>();
  seenGone.set(db, kinds);
  const seen = kinds.get(kind) ?? new Map<string, number>();
  kinds.set(kind, seen);
  const current = new Map(found.map((f) => [`${f.id}:${f.holder}`, f.id]));
  for (const key of seen.keys()) if (!current.has(key)) seen.delete(key);
  const ids: string[] = [];
  for (const [key, id] of current) {
    const first = seen.get(key);
    if (first === undefined) seen.set(key, now.getTime());
    else if (now.getTime() - first >= graceMs) ids.push(id);
  }
  return ids;
}

/** The database server started this recently: every presence lost its session with it and may be opening it again. */
export const RESTART_GRACE_MS = 30_000;

/** Whether the PostgreSQL server started less than `ms` ago (its presences may not be back yet). */
export async function databaseJustStarted(db: Db, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  const [row] = await queryRows<{ up_ms: number }>(db, sql`SELECT (extract(epoch from now() - pg_postmaster_start_time()) * 1000)::float8 AS up_ms`);
  return row !== undefined && Number(row.up_ms) < ms;
}

/**
 * Whose claims a release frees: `all` on a database one process holds alone (the embedded one: at start, a claim it
 * finds was made by a process that ended; at stop, every claim is this process's), `{ holder }` on a shared one at
 * this server's stop (the claims naming its presence), `dead` the claims whose holder's presence is gone.
 */
export type ClaimScope = "all" | { holder: number } | "dead";

/** The claims of `scope`, by their holder column: all, one holder's, or those whose holder is gone. */
export function heldBy(holderColumn: PgColumn, scope: ClaimScope): SQL | undefined {
  if (scope === "all") return undefined;
  if (scope === "dead") return and(isNotNull(holderColumn), not(holderAlive(holderColumn)));
  return eq(holderColumn, scope.holder);
}

import { resolutionMs, type Count, type TakeResult } from "./sliding-log";
import type { LogStore } from "./store";
import { log } from "@/lib/platform/log";

/** What a PostgreSQL store needs of its client: node-postgres's `Pool` (or `Client`) has exactly this. */
export type PgQueryable = {
  query(query: { text: string; values?: unknown[]; name?: string }): Promise<{ rows: unknown[]; rowCount: number | null }>;
};

/**
 * The request logs' table (not in lib/platform/db/schema.ts: the store makes it, with its function, on first use): `key`
 * (policy:subject), the log as `at` (ms) and `n` (requests at that time), and `expire`, when the newest entry leaves
 * the window (for the clean-up).
 */
export const RATE_LIMIT_TABLE = "rate_limit_log";

/** The fixed-window counts of earlier versions (rate-limiter-flexible's table), dropped when the log table is made. */
const OLD_TABLE = "rate_limits";

// Any constant works: it only has to be the same in every server that creates the table.
const TABLE_LOCK_KEY = 402_4029;

/** Rows whose newest entry left the window this long ago are deleted; the margin covers clocks of servers that differ. */
const EXPIRED_ROW_GRACE_MS = 60 * 60 * 1000;
const CLEANUP_INTERVAL_MS = 5 * 60 * 1000;
/** At most this many requests are counted by one statement. */
const TAKE_BATCH_MAX = 64;

/**
 * The sliding logs in a PostgreSQL table. Requests are counted by one statement, `SELECT * FROM <table>_take_many(...)`:
 * the function locks the requests' rows in key order (two servers never both take a log's last place, and never
 * deadlock), then for each request in turn drops what left the window and logs the request in every one of its rows
 * or, if one has no room, in none. Its commit does not wait for the disk (synchronous_commit off for that transaction
 * alone): on a server with fsync, a request does not wait for a flush of the write-ahead log for its counters.
 *
 * The requests that arrive while this process's statement is running wait for it and then go together in the next
 * one (at most TAKE_BATCH_MAX): under load a server pays one round trip, one transaction and one set of row locks for
 * many requests, instead of each request queueing on the same rows' locks in a connection of its own. A request that
 * finds none running goes at once.
 */
export async function createPostgresLogs(client: PgQueryable, tableName = RATE_LIMIT_TABLE): Promise<LogStore> {
  await createTable(client, tableName);
  const cleanup = setInterval(() => void deleteExpired(client, tableName), CLEANUP_INTERVAL_MS);
  cleanup.unref();
  const takeMany = quoteIdent(`${tableName}_take_many`);
  const giveBack = quoteIdent(`${tableName}_give_back`);

  type Waiting = { counts: readonly Count[]; now: number; resolve(result: TakeResult): void; reject(err: unknown): void };
  const waiting: Waiting[] = [];
  let running = false;

  /** Sends what waits, a batch per statement, until nothing does. */
  async function send(): Promise<void> {
    running = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, TAKE_BATCH_MAX);
        try {
          const results = await takeBatch(batch);
          batch.forEach((w, i) => w.resolve(results[i]!));
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      running = false;
    }
  }

  async function takeBatch(batch: readonly Waiting[]): Promise<TakeResult[]> {
    const all = batch.flatMap((w, i) => w.counts.map((count) => ({ count, request: i + 1 })));
    // Unnamed statements: a named one lives on one server connection, which a transaction pooler (PgBouncer in
    // transaction mode, where DATABASE_URL may point) does not keep for this client from one query to the next.
    const { rows } = await client.query({
      text: `SELECT request, used, oldest, accepted FROM ${takeMany}($1::integer[], $2::varchar[], $3::integer[], $4::bigint[], $5::bigint[], $6::bigint[])`,
      values: [
        all.map((a) => a.request),
        all.map((a) => a.count.key),
        all.map((a) => a.count.policy.points),
        all.map((a) => a.count.policy.durationSec * 1000),
        all.map((a) => resolutionMs(a.count.policy)),
        batch.map((w) => w.now),
      ],
    });
    const results = rows as { request: number; used: number; oldest: string | number | null; accepted: boolean }[];
    if (results.length !== all.length) throw new Error(`rate limits: ${results.length} logs answered for ${all.length}`);
    // The rows come in the order of the counts sent: each request's own, in its order.
    let at = 0;
    return batch.map((w) => {
      const mine = results.slice(at, (at += w.counts.length));
      return {
        accepted: mine.every((r) => r.accepted),
        states: mine.map((r, i) => ({
          used: Number(r.used),
          freesAt: r.oldest === null ? undefined : Number(r.oldest) + w.counts[i]!.policy.durationSec * 1000,
        })),
      };
    });
  }

  return {
    kind: "postgres",
    take(counts, now): Promise<TakeResult> {
      if (counts.length === 0) return Promise.resolve({ accepted: true, states: [] });
      return new Promise<TakeResult>((resolve, reject) => {
        waiting.push({ counts, now, resolve, reject });
        if (!running) void send();
      });
    },
    async giveBack(counts) {
      if (counts.length === 0) return;
      await client.query({ text: `SELECT ${giveBack}($1::varchar[])`, values: [counts.map((c) => c.key)] });
    },
    close: async () => clearInterval(cleanup),
  };
}

/**
 * Creates the table and its functions if missing. Several servers may start at once, and two concurrent
 * `CREATE ... IF NOT EXISTS` can collide in the catalog; the advisory lock, held until this one statement's
 * transaction ends, lets one create them while the others wait and then find them.
 */
export async function createTable(client: PgQueryable, tableName: string): Promise<void> {
  const table = quoteIdent(tableName);
  const take = quoteIdent(`${tableName}_take`);
  const takeLocked = quoteIdent(`${tableName}_take_locked`);
  const takeMany = quoteIdent(`${tableName}_take_many`);
  const giveBack = quoteIdent(`${tableName}_give_back`);
  const dropOld = tableName === RATE_LIMIT_TABLE ? `DROP TABLE IF EXISTS ${quoteIdent(OLD_TABLE)};` : "";
  await client.query({
    text: `DO $do$ BEGIN
      PERFORM pg_advisory_xact_lock(${TABLE_LOCK_KEY});
      ${dropOld}
      CREATE TABLE IF NOT EXISTS ${table} (
        key varchar(255) PRIMARY KEY,
        at bigint[] NOT NULL DEFAULT '{}',
        n integer[] NOT NULL DEFAULT '{}',
        expire bigint NOT NULL DEFAULT 0
      );

      -- One request against several logs whose rows exist and are locked by the caller: the same steps as takeAll()
      -- in lib/platform/ratelimit/sliding-log.ts.
      CREATE OR REPLACE FUNCTION ${takeLocked}(p_keys varchar[], p_points integer[], p_windows bigint[], p_steps bigint[], p_now bigint)
      RETURNS TABLE (used integer, oldest bigint, accepted boolean) LANGUAGE plpgsql AS $fn$
      DECLARE
        k integer;
        c integer := coalesce(array_length(p_keys, 1), 0);
        v_at bigint[];
        v_n integer[];
        v_first integer[] := array_fill(1, ARRAY[c]);
        v_used integer[] := array_fill(0, ARRAY[c]);
        v_ok boolean := true;
        v_len integer;
        v_time bigint;
      BEGIN
        FOR k IN 1..c LOOP
          SELECT t.at, t.n INTO v_at, v_n FROM ${table} AS t WHERE t.key = p_keys[k];
          v_len := coalesce(array_length(v_at, 1), 0);
          -- An entry at a counts while p_now < a + window.
          WHILE v_first[k] <= v_len AND v_at[v_first[k]] <= p_now - p_windows[k] LOOP
            v_first[k] := v_first[k] + 1;
          END LOOP;
          v_used[k] := coalesce((SELECT sum(x) FROM unnest(v_n[v_first[k]:v_len]) AS x), 0);
          IF v_used[k] >= p_points[k] THEN v_ok := false; END IF;
        END LOOP;
        FOR k IN 1..c LOOP
          SELECT t.at, t.n INTO v_at, v_n FROM ${table} AS t WHERE t.key = p_keys[k];
          v_len := coalesce(array_length(v_at, 1), 0);
          v_at := v_at[v_first[k]:v_len];
          v_n := v_n[v_first[k]:v_len];
          IF v_ok THEN
            v_len := coalesce(array_length(v_at, 1), 0);
            v_time := ((p_now + p_steps[k] - 1) / p_steps[k]) * p_steps[k];
            IF v_len > 0 AND v_at[v_len] >= v_time THEN
              v_n[v_len] := v_n[v_len] + 1;
            ELSE
              v_at := v_at || v_time;
              v_n := v_n || 1;
            END IF;
            v_used[k] := v_used[k] + 1;
          END IF;
          IF v_ok OR v_first[k] > 1 THEN
            v_len := coalesce(array_length(v_at, 1), 0);
            UPDATE ${table} AS t SET at = v_at, n = v_n, expire = CASE WHEN v_len > 0 THEN v_at[v_len] + p_windows[k] ELSE 0 END
              WHERE t.key = p_keys[k];
          END IF;
          used := v_used[k];
          oldest := v_at[1];
          accepted := v_ok;
          RETURN NEXT;
        END LOOP;
      END
      $fn$;

      -- Several requests, one after the other, in one transaction: p_requests numbers each count's request (1, 1, 2,
      -- 3, 3…: a request's counts side by side, requests in order), p_nows is each request's time. Every row is
      -- locked first, in key order. The rows answer in the order of the counts.
      CREATE OR REPLACE FUNCTION ${takeMany}(p_requests integer[], p_keys varchar[], p_points integer[], p_windows bigint[], p_steps bigint[], p_nows bigint[])
      RETURNS TABLE (request integer, used integer, oldest bigint, accepted boolean) LANGUAGE plpgsql AS $fn$
      DECLARE
        c integer := coalesce(array_length(p_keys, 1), 0);
        s integer := 1;
        e integer;
      BEGIN
        -- A request's counters are not money: their transaction does not wait for the disk to confirm its commit. A
        -- crash may forget the last few milliseconds of counts, never a payment (set_config's true: this transaction).
        PERFORM set_config('synchronous_commit', 'off', true);
        INSERT INTO ${table} AS t (key) SELECT DISTINCT u.key FROM unnest(p_keys) AS u(key) ORDER BY u.key ON CONFLICT (key) DO NOTHING;
        PERFORM 1 FROM ${table} AS t WHERE t.key = ANY (p_keys) ORDER BY t.key FOR UPDATE;
        WHILE s <= c LOOP
          e := s;
          WHILE e < c AND p_requests[e + 1] = p_requests[s] LOOP
            e := e + 1;
          END LOOP;
          RETURN QUERY SELECT p_requests[s], r.used, r.oldest, r.accepted
            FROM ${takeLocked}(p_keys[s:e], p_points[s:e], p_windows[s:e], p_steps[s:e], p_nows[p_requests[s]]) AS r;
          s := e + 1;
        END LOOP;
      END
      $fn$;

      -- One request (what servers of earlier versions call, during a rolling deploy).
      CREATE OR REPLACE FUNCTION ${take}(p_keys varchar[], p_points integer[], p_windows bigint[], p_steps bigint[], p_now bigint)
      RETURNS TABLE (used integer, oldest bigint, accepted boolean) LANGUAGE sql AS $fn$
        SELECT r.used, r.oldest, r.accepted
        FROM ${takeMany}(array_fill(1, ARRAY[coalesce(array_length(p_keys, 1), 0)]), p_keys, p_points, p_windows, p_steps, ARRAY[p_now]) AS r;
      $fn$;

      -- Takes the newest request out of each log: removeNewest() in lib/platform/ratelimit/sliding-log.ts.
      CREATE OR REPLACE FUNCTION ${giveBack}(p_keys varchar[]) RETURNS void LANGUAGE sql AS $fn$
        UPDATE ${table} AS t SET
          at = CASE WHEN t.n[cardinality(t.n)] > 1 THEN t.at ELSE t.at[1:cardinality(t.at) - 1] END,
          n = CASE WHEN t.n[cardinality(t.n)] > 1 THEN t.n[1:cardinality(t.n) - 1] || (t.n[cardinality(t.n)] - 1) ELSE t.n[1:cardinality(t.n) - 1] END
        WHERE t.key = ANY (p_keys) AND cardinality(t.n) > 0;
      $fn$;
    END $do$`,
  });
}

async function deleteExpired(client: PgQueryable, tableName: string): Promise<void> {
  try {
    // Rows locked in key order as the requests lock theirs, and those a request holds skipped: never a deadlock.
    const table = quoteIdent(tableName);
    await client.query({
      text: `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE expire < $1 ORDER BY key FOR UPDATE SKIP LOCKED)`,
      values: [Date.now() - EXPIRED_ROW_GRACE_MS],
    });
  } catch (err) {
    // Not urgent: a stale row is pruned by the next request of its key anyway. Try again at the next interval.
    log.error({ err: (err as Error).message }, "rate limits: deleting expired logs failed");
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain table name: ${name}`);
  return `"${name}"`;
}

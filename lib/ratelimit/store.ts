import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Policy } from "./policies";
import { log } from "@/lib/log";

/** What a PostgreSQL store needs of its client: node-postgres's `Pool` (or `Client`) has exactly this. */
export type PgQueryable = {
  query(query: { text: string; values?: unknown[]; name?: string }): Promise<{ rows: unknown[]; rowCount: number | null }>;
};

/**
 * Where the counts live.
 * - `memory`: in this process. Right for one server on the embedded database (PGlite lets one process open it).
 * - `postgres`: a table shared by every server on the same database (the app's own pool; see `getRateLimiter`).
 * - `redis`: shared through Redis, when `REDIS_URL` is set.
 */
export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; client: PgQueryable; tableName?: string } | { kind: "redis"; client: Redis };

export type StoreKind = RateLimitStore["kind"];

/** rate-limiter-flexible keeps its own table (not in lib/db/schema.ts): `key` (prefix:subject), `points`, `expire` (ms). */
export const RATE_LIMIT_TABLE = "rate_limits";

// Any constant works: it only has to be the same in every server that creates the table.
const TABLE_LOCK_KEY = 402_4029;

/** Rows whose window ended this long ago are deleted; the margin covers clock differences between servers. */
const EXPIRED_ROW_GRACE_MS = 60 * 60 * 1000;
const CLEANUP_INTERVAL_MS = 5 * 60 * 1000;

/** One rate-limiter-flexible limiter per policy, all on one store. */
export type PolicyLimiters = {
  kind: StoreKind;
  limiterFor(policy: Policy): RateLimiterAbstract;
  close(): Promise<void>;
};

/**
 * Prepares a store (on PostgreSQL: creates the table once) and returns a factory of limiters on it.
 *
 * The shared stores get an in-memory insurance limiter with the same rule: while PostgreSQL or Redis cannot be
 * reached, each server counts on its own instead of failing the request.
 */
export async function openStore(store: RateLimitStore): Promise<PolicyLimiters> {
  const limiters = new Map<string, RateLimiterAbstract>();
  const cached = (policy: Policy, make: (options: LimiterOptions) => RateLimiterAbstract) => {
    // The rule is part of the cache key: two policies of one name (tests) must not share a limiter with the wrong rule.
    const id = `${policy.name}:${policy.points}:${policy.durationSec}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = make({ points: policy.points, duration: policy.durationSec, keyPrefix: `ratelimit:${policy.name}` });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  switch (store.kind) {
    case "memory":
      return { kind: "memory", limiterFor: (p) => cached(p, (o) => new RateLimiterMemory(o)), close: async () => {} };

    case "postgres": {
      const tableName = store.tableName ?? RATE_LIMIT_TABLE;
      await createTable(store.client, tableName);
      const cleanup = setInterval(() => void deleteExpired(store.client, tableName), CLEANUP_INTERVAL_MS);
      cleanup.unref();
      return {
        kind: "postgres",
        limiterFor: (p) =>
          cached(
            p,
            (o) =>
              new RateLimiterPostgres({
                ...o,
                storeClient: store.client,
                // node-postgres's Pool and Client both answer query(); "pool" means: no connection to check out and release.
                storeType: "pool",
                tableName,
                tableCreated: true,
                // One timer for the whole table (above) instead of one per limiter.
                clearExpiredByTimeout: false,
                insuranceLimiter: new RateLimiterMemory(o),
              }),
          ),
        close: async () => clearInterval(cleanup),
      };
    }

    case "redis":
      return {
        kind: "redis",
        limiterFor: (p) => cached(p, (o) => new RateLimiterRedis({ ...o, storeClient: store.client, insuranceLimiter: new RateLimiterMemory(o) })),
        close: async () => {},
      };
  }
}

type LimiterOptions = { points: number; duration: number; keyPrefix: string };

/**
 * A Redis connection for the counts. Without an offline queue a command fails at once while the connection is down,
 * and the limiters count in memory (their insurance) instead of holding requests until Redis is back.
 */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded only when Redis is configured.
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let lastLogged = 0;
  client.on("error", (err: Error) => {
    // ioredis reports every failed reconnect; once a minute is enough to tell the operator.
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    log.error({ err: err.message }, "rate limits: Redis connection error (counting in memory until it is back)");
  });
  return client;
}

/**
 * Creates the counts table if it is missing. Several servers may start at once, and two concurrent
 * `CREATE TABLE IF NOT EXISTS` can collide in the catalog; the advisory lock, held until this one statement's
 * transaction ends, lets one create it while the others wait and then find it.
 */
export async function createTable(client: PgQueryable, tableName: string): Promise<void> {
  const table = quoteIdent(tableName);
  await client.query({
    text: `DO $$ BEGIN
      PERFORM pg_advisory_xact_lock(${TABLE_LOCK_KEY});
      CREATE TABLE IF NOT EXISTS ${table} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint);
    END $$`,
  });
}

async function deleteExpired(client: PgQueryable, tableName: string): Promise<void> {
  try {
    await client.query({ text: `DELETE FROM ${quoteIdent(tableName)} WHERE expire < $1`, values: [Date.now() - EXPIRED_ROW_GRACE_MS] });
  } catch (err) {
    // Not urgent: a stale row is reset by the next request of its key anyway. Try again at the next interval.
    log.error({ err: (err as Error).message }, "rate limits: deleting expired counts failed");
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain table name: ${name}`);
  return `"${name}"`;
}

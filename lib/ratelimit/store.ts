import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
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

/** One request's point on one policy's counter. */
export type Count = { policy: Policy; key: string };
/** What a count came to: the counter after it (rate-limiter-flexible's result), and whether it went past the policy's points. */
export type CountResult = { res: RateLimiterRes; refused: boolean };

/** One rate-limiter-flexible limiter per policy, all on one store. */
export type PolicyLimiters = {
  kind: StoreKind;
  limiterFor(policy: Policy): RateLimiterAbstract;
  /**
   * Adds one point to each counter, in the order given. On PostgreSQL all the request's counters are written by one
   * statement (one round trip, one write); the other stores count each on its own limiter, concurrently.
   */
  consume(counts: Count[]): Promise<CountResult[]>;
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

  const eachOnItsOwn = (limiterFor: (p: Policy) => RateLimiterAbstract) => (counts: Count[]) =>
    Promise.all(counts.map(({ policy, key }) => consumeOne(limiterFor(policy), key)));

  switch (store.kind) {
    case "memory": {
      const limiterFor = (p: Policy) => cached(p, (o) => new RateLimiterMemory(o));
      return { kind: "memory", limiterFor, consume: eachOnItsOwn(limiterFor), close: async () => {} };
    }

    case "postgres": {
      const tableName = store.tableName ?? RATE_LIMIT_TABLE;
      await createTable(store.client, tableName);
      const cleanup = setInterval(() => void deleteExpired(store.client, tableName), CLEANUP_INTERVAL_MS);
      cleanup.unref();
      const limiterFor = (p: Policy) =>
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
        );
      const oneByOne = eachOnItsOwn(limiterFor);
      return {
        kind: "postgres",
        limiterFor,
        consume: (counts) => (counts.length < 2 ? oneByOne(counts) : consumeInOneStatement(store.client, tableName, counts, limiterFor, oneByOne)),
        close: async () => clearInterval(cleanup),
      };
    }

    case "redis": {
      const limiterFor = (p: Policy) => cached(p, (o) => new RateLimiterRedis({ ...o, storeClient: store.client, insuranceLimiter: new RateLimiterMemory(o) }));
      return { kind: "redis", limiterFor, consume: eachOnItsOwn(limiterFor), close: async () => {} };
    }
  }
}

async function consumeOne(limiter: RateLimiterAbstract, key: string): Promise<CountResult> {
  try {
    return { res: await limiter.consume(key), refused: false };
  } catch (err) {
    // rate-limiter-flexible rejects with its result when the quota is used up, and with an Error when the store fails
    // (the shared stores fall back to their in-memory insurance before that happens).
    if (err instanceof RateLimiterRes) return { res: err, refused: true };
    throw err;
  }
}

/**
 * Several counters in one upsert, with rate-limiter-flexible's own rule for each row (the rows are its rows, which its
 * limiters read and reward): a window that has ended starts again at 1 point with a new end, else the point is added.
 * When the statement fails (the database cannot be reached), each counter is counted on its own limiter, which falls
 * back to its in-memory insurance.
 */
async function consumeInOneStatement(
  client: PgQueryable,
  tableName: string,
  counts: Count[],
  limiterFor: (p: Policy) => RateLimiterAbstract,
  oneByOne: (counts: Count[]) => Promise<CountResult[]>,
): Promise<CountResult[]> {
  const keys = counts.map(({ policy, key }) => limiterFor(policy).getKey(key));
  // One statement cannot update a row twice: the same counter twice (never asked today) is counted one by one.
  if (new Set(keys).size !== keys.length) return oneByOne(counts);
  const now = Date.now();
  const table = quoteIdent(tableName);
  let rows: { key: string; points: number; expire: string | number | null }[];
  try {
    const result = await client.query({
      name: `${tableName}:upsert-many`,
      text: `INSERT INTO ${table} (key, points, expire)
               SELECT key, 1, expire FROM unnest($1::varchar[], $2::bigint[]) AS t(key, expire)
             ON CONFLICT (key) DO UPDATE SET
               points = CASE WHEN ${table}.expire <= $3 THEN 1 ELSE ${table}.points + 1 END,
               expire = CASE WHEN ${table}.expire <= $3 THEN EXCLUDED.expire ELSE ${table}.expire END
             RETURNING key, points, expire`,
      values: [keys, counts.map(({ policy }) => now + policy.durationSec * 1000), now],
    });
    rows = result.rows as typeof rows;
  } catch {
    return oneByOne(counts);
  }
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return counts.map(({ policy }, i) => {
    const row = byKey.get(keys[i]!);
    if (!row) throw new Error(`rate limits: the counter ${keys[i]} was not written`);
    const consumed = Number(row.points);
    const res = new RateLimiterRes(
      Math.max(policy.points - consumed, 0),
      row.expire === null ? -1 : Math.max(Number(row.expire) - Date.now(), 0),
      consumed,
      consumed === 1,
    );
    return { res, refused: consumed > policy.points };
  });
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

import type { Redis } from "ioredis";
import { createPostgresLogs, type PgQueryable } from "./postgres-store";
import { createRedisLogs } from "./redis-store";
import { removeNewest, takeAll, type Count, type SlidingLog, type TakeResult } from "./sliding-log";
import { log } from "@/lib/platform/log";

export type { PgQueryable } from "./postgres-store";
export { createTable, RATE_LIMIT_TABLE } from "./postgres-store";
export { connectRedis } from "./redis-store";

/**
 * Where the request logs live.
 * - `memory`: in this process. Right for one server on the embedded database (PGlite lets one process open it).
 * - `postgres`: a table shared by every server on the same database (the app's own pool; see `getRateLimiter`).
 * - `redis`: shared through Redis, when `REDIS_URL` is set.
 */
export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; client: PgQueryable; tableName?: string } | { kind: "redis"; client: Redis };

export type StoreKind = RateLimitStore["kind"];

/** The sliding logs of every policy and subject, on one store (see lib/platform/ratelimit/sliding-log.ts). */
export type LogStore = {
  kind: StoreKind;
  /**
   * One request against the logs of `counts` (keys unique), atomically: logged in all of them if each has room, else
   * in none. On the shared stores one statement or script, so that two servers never both take a log's last place.
   */
  take(counts: readonly Count[], now: number): Promise<TakeResult>;
  /** Removes the newest request of each log (a point given back). */
  giveBack(counts: readonly Count[]): Promise<void>;
  close(): Promise<void>;
};

/**
 * Opens a store (on PostgreSQL: creates its table and function once).
 *
 * The shared stores are insured by an in-memory store with the same rules: while PostgreSQL or Redis cannot be
 * reached, each server counts on its own instead of failing the request.
 */
export async function openStore(store: RateLimitStore): Promise<LogStore> {
  switch (store.kind) {
    case "memory":
      return memoryLogs();
    case "postgres":
      return insured(await createPostgresLogs(store.client, store.tableName), memoryLogs());
    case "redis":
      return insured(createRedisLogs(store.client), memoryLogs());
  }
}

/** How often the memory store forgets subjects whose logs are empty (a flood of addresses must not stay in memory). */
const SWEEP_INTERVAL_MS = 60_000;

/** The logs in this process's memory, keyed by policy and subject. */
export function memoryLogs(): LogStore {
  const logs = new Map<string, SlidingLog & { expires: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of logs) if (entry.expires <= now) logs.delete(key);
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  const logOf = (key: string) => {
    let entry = logs.get(key);
    if (!entry) {
      entry = { at: [], n: [], expires: 0 };
      logs.set(key, entry);
    }
    return entry;
  };
  return {
    kind: "memory",
    async take(counts, now) {
      const entries = counts.map(({ key }) => logOf(key));
      const result = takeAll(entries, counts, now);
      counts.forEach(({ policy }, i) => {
        const entry = entries[i]!;
        const newest = entry.at[entry.at.length - 1];
        entry.expires = newest === undefined ? 0 : newest + policy.durationSec * 1000;
      });
      return result;
    },
    async giveBack(counts) {
      for (const { key } of counts) {
        const entry = logs.get(key);
        if (entry) removeNewest(entry);
      }
    },
    close: async () => clearInterval(sweep),
  };
}

/** A shared store that falls back to `insurance` for the requests it cannot answer (the error logged once a minute). */
function insured(shared: LogStore, insurance: LogStore): LogStore {
  let lastLogged = 0;
  const fellBack = (err: unknown) => {
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    log.error({ err: (err as Error).message, store: shared.kind }, "rate limits: the shared store failed; counting in memory until it answers");
  };
  return {
    kind: shared.kind,
    async take(counts, now) {
      try {
        return await shared.take(counts, now);
      } catch (err) {
        fellBack(err);
        return insurance.take(counts, now);
      }
    },
    async giveBack(counts) {
      try {
        await shared.giveBack(counts);
      } catch (err) {
        fellBack(err);
        await insurance.giveBack(counts);
      }
    },
    async close() {
      await shared.close();
      await insurance.close();
    },
  };
}

import type { Database } from "./client";
import { log } from "@/lib/platform/log";

const globalForLocks = globalThis as typeof globalThis & { __storefrontKeyLocks?: Map<string, Promise<unknown>> };
const queues = (globalForLocks.__storefrontKeyLocks ??= new Map());

/**
 * Runs `work` while holding the lock named `key`: one holder at a time in this process (a queue per key), and, on
 * PostgreSQL, one across every server of the database (a transaction advisory lock, held by an open transaction on a
 * connection of its own so that `work` may use the pool meanwhile; a transaction keeps its connection through a
 * PgBouncer in transaction mode too). PGlite is opened by one process only, so the process lock is all it needs.
 * Keep `work` short: it is what several servers wait for (a nonce read, a signature, a broadcast).
 */
export async function withKeyLock<T>(database: Database, key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => withServerLock(database, key, work));
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

async function withServerLock<T>(database: Database, key: string, work: () => Promise<T>): Promise<T> {
  if (!database.pool) return work();
  const client = await database.pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 402))", [key]);
      return await work();
    } finally {
      // The transaction holds nothing but the lock: its end releases it.
      await client.query("ROLLBACK").catch((err: unknown) => {
        // The connection is gone, and with it the lock; do not hand it back to the pool.
        broken = true;
        log.error({ err, lock: key }, "could not release a lock");
      });
    }
  } finally {
    client.release(broken);
  }
}

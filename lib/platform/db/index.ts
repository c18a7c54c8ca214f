import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { openDatabase, type Database, type Db, type OpenOptions } from "./client";

export type { Db, DbOrTx, Database } from "./client";
export * as schema from "./schema";

const globalForDb = globalThis as typeof globalThis & { __storefrontDb?: Promise<Database>; __storefrontDbPrepared?: boolean };

/** How this process reaches its database: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR. */
export function defaultOpenOptions(role = "server"): OpenOptions {
  const c = config();
  return c.databaseUrl
    ? // On Vercel, migrations are the build's (`npm run db:migrate`), and each function instance keeps few connections.
      { driver: "postgres", url: c.databaseUrl, directUrl: c.databaseUrlUnpooled, migrate: !c.vercel, max: c.vercel ? 3 : 10 }
    : { driver: "pglite", dataDir: c.dataDir, role };
}

/** What follows the migrations when a database opens (the server's start passes the demo catalog's seeding). */
export type Preparation = (db: Db) => Promise<void>;

/**
 * Opens the process's database: migrated, then `prepare`d, before anything else can query it (on PostgreSQL under
 * the migrations' lock, so that of several servers starting at once one does both). The server's start calls it
 * first, with the catalog's seeding (lib/server/start.ts); getDatabase() then answers the same database. Opened once:
 * a later call gets the database already open. The promise lives on globalThis so that `next dev` module reloads
 * share one PGlite instance instead of opening the data folder twice.
 */
export function openProcessDatabase(prepare?: Preparation): Promise<Database> {
  if (!globalForDb.__storefrontDb) {
    const opening = openDatabase(defaultOpenOptions(), prepare);
    globalForDb.__storefrontDb = opening;
    globalForDb.__storefrontDbPrepared = Boolean(prepare);
    // A failed open is not cached: the next call tries again (and reports the error again).
    opening.catch(() => {
      if (globalForDb.__storefrontDb === opening) globalForDb.__storefrontDb = undefined;
    });
  } else if (prepare && !globalForDb.__storefrontDbPrepared) {
    // Something queried the database before the start opened it: it is migrated, but its preparation did not run.
    log.warn("the database was opened before the server's start: it was migrated but not seeded");
  }
  return globalForDb.__storefrontDb;
}

/**
 * The process's database: the one the server's start opened (openProcessDatabase), or, in a process that opened none
 * (an operator's command), opened now, migrated and not seeded.
 */
export function getDatabase(): Promise<Database> {
  return openProcessDatabase();
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Opens the database for one operator command (migrated, not seeded), runs `work` on it, and closes it. */
export async function withDatabase<T>(role: string, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase(defaultOpenOptions(role));
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

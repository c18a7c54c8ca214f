import { config } from "@/lib/platform/config";
import { openDatabase, type Database, type Db, type OpenOptions } from "./client";

export type { Db, DbOrTx, Database } from "./client";
export * as schema from "./schema";

const globalForDb = globalThis as typeof globalThis & { __storefrontDb?: Promise<Database> };

/** How this process reaches its database: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR. */
export function defaultOpenOptions(role = "server"): OpenOptions {
  const c = config();
  return c.databaseUrl
    ? // On Vercel, migrations are the build's (`npm run db:migrate`), and each function instance keeps few connections.
      { driver: "postgres", url: c.databaseUrl, directUrl: c.databaseUrlUnpooled, migrate: !c.vercel, max: c.vercel ? 3 : 10 }
    : { driver: "pglite", dataDir: c.dataDir, role };
}

/**
 * The process's database, opened, migrated and seeded once. The promise lives on globalThis so that
 * `next dev` module reloads share one PGlite instance instead of opening the data folder twice.
 */
export function getDatabase(): Promise<Database> {
  if (!globalForDb.__storefrontDb) {
    const opening = openDatabase(defaultOpenOptions(), prepareDatabase);
    globalForDb.__storefrontDb = opening;
    // A failed open is not cached: the next request tries again (and reports the error again).
    opening.catch(() => {
      if (globalForDb.__storefrontDb === opening) globalForDb.__storefrontDb = undefined;
    });
  }
  return globalForDb.__storefrontDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

const preparation = globalThis as typeof globalThis & { __storefrontDbPreparation?: (db: Db) => Promise<void> };

/**
 * Sets what follows the migrations when the process's database opens (the demo catalog's seeding): the layers above
 * provide it (lib/wiring.ts), as the database sits below the catalog it would fill.
 */
export function setDatabasePreparation(prepare: (db: Db) => Promise<void>): void {
  preparation.__storefrontDbPreparation = prepare;
}

/** What follows the migrations; unwired, it refuses (an empty shop would otherwise start without saying why). */
export async function prepareDatabase(db: Db): Promise<void> {
  const prepare = preparation.__storefrontDbPreparation;
  if (!prepare) throw new Error("No database preparation is wired: load lib/wiring.ts at start-up");
  await prepare(db);
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

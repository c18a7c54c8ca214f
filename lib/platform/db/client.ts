import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { lockDataDir } from "./lock";
import { noteDatabaseBack, noteDatabaseOutage } from "./outage";
import { isDatabaseUnavailable } from "./unavailable";
import * as schema from "./schema";
import { log } from "@/lib/platform/log";

/** The one database type the domain code sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database or a transaction of one: what code that may run inside a caller's transaction takes. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  db: Db;
  driver: "pglite" | "postgres";
  /** On PostgreSQL, the node-postgres pool under `db`, for libraries that take a pg client (rate-limit counts). */
  pool?: pg.Pool;
  /**
   * On PGlite, a gzipped tarball of the database's data folder (PGlite's own dump), taken between two transactions
   * while the database stays open; what `admin backup` writes and `admin restore` loads.
   */
  dump?: () => Promise<Blob>;
  close(): Promise<void>;
};

export type OpenOptions =
  | {
      driver: "postgres";
      url: string;
      /** A direct (unpooled) URL for migrations, when `url` goes through a transaction pooler (PgBouncer, Neon, Supabase). */
      directUrl?: string;
      /** Apply migrations and `prepare` before opening (default); false: they are `npm run db:migrate`'s (Vercel). */
      migrate?: boolean;
      /** Connections of this process's pool (default 10). */
      max?: number;
    }
  | {
      driver: "pglite";
      dataDir: string;
      role?: string;
      /** A tarball made by `dump()` to fill the database from; the folder must hold no database yet. */
      loadDataDir?: Blob;
      /** false: open the database as it is, without applying the migrations (a backup does not change what it copies). */
      migrate?: boolean;
    }
  | {
      driver: "pglite-memory";
      /** A migrated database's dump (`dumpDataDir`) to start from instead of a new cluster: the tests' template. */
      loadDataDir?: Blob;
    };

/** Thrown when a backup is to be restored into a data folder that already holds a database. */
export class DatabaseExistsError extends Error {
  constructor(readonly folder: string) {
    super(`${folder} already holds a database: a backup is restored into an empty data folder. Restore into a new DATA_DIR, or move that folder away first.`);
    this.name = "DatabaseExistsError";
  }
}

/** Where PGlite keeps the embedded database under DATA_DIR. */
export function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

/** Whether a folder is missing or empty. */
function isEmptyFolder(folder: string): boolean {
  try {
    return fs.readdirSync(folder).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "lib", "platform", "db", "migrations");

/**
 * PGlite's start: its defaults with a smaller shared_buffers. PostgreSQL's own default, 128 MB, lives inside PGlite's
 * WebAssembly memory, which never shrinks: once the page cache has filled it, it is resident for good. The shop's data
 * files sit in the operating system's file cache anyway (PGlite reads real files), so a 16 MB page cache keeps about
 * 110 MB off the server's resident memory at no measurable cost to the catalog's reads, which come from memory.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/**
 * Creates the embedded database's cluster (PGlite's initdb) in a short-lived child process when its folder is empty.
 * In the server's own process, initdb's WebAssembly instance would stay in its resident memory for good, about 100 MB
 * more than the same server holds when it opens an existing folder.
 */
export async function createEmbeddedCluster(dataDir: string): Promise<void> {
  if (!isEmptyFolder(dataDir)) return;
  const script = [
    `import { PGlite } from "@electric-sql/pglite";`,
    `const [dataDir, params] = process.argv.slice(-2);`,
    `const db = await PGlite.create({ dataDir, startParams: JSON.parse(params) });`,
    `await db.close();`,
  ].join("\n");
  await new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, dataDir, JSON.stringify(PGLITE_START_PARAMS)],
      { cwd: process.cwd(), timeout: 120_000 },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        // The folder was empty: leave no half-created cluster for the next start to trip on.
        fs.rmSync(dataDir, { recursive: true, force: true });
        reject(new Error(`Creating the embedded database in ${dataDir} failed: ${stderr || err.message}`, { cause: err }));
      },
    ),
  );
}

// Any constant works: it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_KEY = 402_2026;

/**
 * Opens the database, applies the committed migrations, then runs `prepare` (seeding) once, all before
 * anything else can query it. On Postgres several servers may start at once: migration and preparation
 * run under an advisory lock so that exactly one of them does the work.
 */
export async function openDatabase(options: OpenOptions, prepare?: (db: Db) => Promise<void>): Promise<Database> {
  if (options.driver === "postgres") {
    // Unnamed statements only (node-postgres's default) and no session state outside a transaction: the pool works
    // through a PgBouncer in transaction mode as well as on a direct connection. A connection that cannot be had in
    // 5 s (a server failing over, every connection busy) fails the request (503, lib/platform/db/unavailable.ts) rather than
    // holding it for good, which is node-postgres's default.
    const pool = new Pool({ connectionString: options.url, max: options.max ?? 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
    const end = poolCloser(pool);
    const client = await pool.connect().catch(async (err: Error) => {
      await end();
      throw new Error(`Cannot connect to the PostgreSQL server in DATABASE_URL: ${err.message}`, { cause: err });
    });
    client.release();
    if (options.migrate !== false) {
      try {
        await migratePostgres(options.directUrl ?? options.url, prepare);
      } catch (err) {
        await end();
        throw err;
      }
    }
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return { db, driver: "postgres", pool, close: end };
  }

  let release: (() => void) | undefined;
  let dataDir: string | undefined;
  const load = options.loadDataDir;
  if (options.driver === "pglite") {
    release = await lockDataDir(options.dataDir, options.role ?? "server");
    dataDir = pgliteFolder(options.dataDir);
    // Checked under the lock, so that no other process can create a database there meanwhile.
    if (load && !isEmptyFolder(dataDir)) {
      release();
      throw new DatabaseExistsError(dataDir);
    }
  }
  let client: PGlite | undefined;
  try {
    if (dataDir && !load) await createEmbeddedCluster(dataDir);
    client = await PGlite.create({ dataDir, extensions: { pg_trgm }, startParams: PGLITE_START_PARAMS, ...(load ? { loadDataDir: load } : {}) });
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    if (options.driver !== "pglite" || options.migrate !== false) await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    await prepare?.(db);
    const opened = client;
    return {
      db,
      driver: "pglite",
      dump: async () => {
        // A checkpoint first, so that the copied files hold the data rather than leave it to a replay of the WAL;
        // then the copy, under the mutex that transactions hold: never in the middle of one.
        await opened.exec("CHECKPOINT");
        return opened._runExclusiveTransaction(() => opened.dumpDataDir("gzip"));
      },
      close: async () => {
        await opened.close();
        release?.();
      },
    };
  } catch (err) {
    await client?.close().catch(() => undefined);
    // A restore that failed leaves no half-loaded database behind: the folder was empty before it.
    if (load && dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    release?.();
    throw err;
  }
}

/**
 * Applies the migrations and runs `prepare`, on a connection of its own to `url` (a direct one: the session advisory
 * lock that makes one server of several do the work needs a session, which a transaction pooler does not keep).
 */
async function migratePostgres(url: string, prepare?: (db: Db) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect().catch((err: Error) => {
    throw new Error(`Cannot connect to the PostgreSQL server to migrate: ${err.message}`, { cause: err });
  });
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      await prepare?.(drizzlePg({ client, schema }) as unknown as Db);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/** Runs raw SQL and returns its rows, the same way on both drivers. */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Ends a pool once: resolves when every connection is closed (`pool.end()` alone resolves while sockets are still
 * closing). A connection that the server ends (restart, failover, admin) is logged rather than crashing the process;
 * the pool replaces it on the next query.
 */
function poolCloser(pool: pg.Pool): () => Promise<void> {
  const open = new Set<pg.PoolClient>();
  pool.on("connect", (client) => {
    open.add(client);
    // The pool hears an idle connection's end (below); one checked out, between a transaction's queries, emits here,
    // where unheard it would be thrown as an uncaught exception. Its next query fails (a 503: lib/platform/db/unavailable.ts),
    // and the pool drops it when it comes back.
    client.on("error", () => undefined);
    client.once("end", () => open.delete(client));
  });
  pool.on("error", (err) => {
    log.error({ err: err.message }, "PostgreSQL connection lost");
    // Most often the server restarting or failing over: the pages wait (proxy.ts) until a new connection is made.
    if (isDatabaseUnavailable(err)) noteDatabaseOutage();
  });
  pool.on("connect", () => noteDatabaseBack());
  let ending: Promise<void> | undefined;
  return () => {
    ending ??= (async () => {
      const closed = [...open].map((c) => new Promise<void>((resolve) => c.once("end", () => resolve())));
      await pool.end();
      await Promise.all(closed);
    })();
    return ending;
  };
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * node-postgres's pool, with a connection checked out by `connect()` (a transaction's) handed back as soon as the server
 * ends it, and its later release a no-op. drizzle releases a transaction's connection only once its BEGIN succeeded:
 * one whose BEGIN met a server going down was held for good, and after `max` of them (a restart under load) the pool
 * had none left to give until the process restarted. (`pool.query` releases its own connections.)
 */
export class Pool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      const release = client.release;
      let released = false;
      const ended = () => client.release(new Error("The connection ended while checked out"));
      client.release = (err) => {
        if (released) return;
        released = true;
        client.removeListener("end", ended);
        release(err);
      };
      client.once("end", ended);
      return client;
    });
  }
}

let journal: { entries: { when: number }[] } | undefined;

/**
 * Whether every committed migration is applied to this database: the newest migration drizzle recorded is the newest
 * in the journal (lib/platform/db/migrations/meta/_journal.json). `pending` counts those not applied yet.
 */
export async function migrationStatus(db: Db): Promise<{ applied: boolean; pending: number }> {
  // The journal ships with the build: read once per process.
  journal ??= JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  const rows = await queryRows<{ created_at: string | number }>(
    db,
    sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
  ).catch(() => []);
  const newest = rows[0] ? Number(rows[0].created_at) : 0;
  const pending = journal.entries.filter((e) => e.when > newest).length;
  return { applied: pending === 0, pending };
}

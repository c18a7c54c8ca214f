import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import { createEmbeddedCluster, openDatabase, pgliteFolder, queryRows } from "./client";
import { createDatabase, dropDatabase } from "./create-database";
import { DataDirLockedError, lockDataDir } from "./lock";
import { settings } from "./schema";
import { openTestDatabase, testDriver } from "@/test/db";

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-db-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe(`migrations on ${testDriver}`, () => {
  it("creates the schema, with pg_trgm, and runs the preparation once", async () => {
    let prepared = 0;
    const database = await openTestDatabase(async () => {
      prepared++;
    });
    try {
      const tables = await queryRows<{ table_name: string }>(
        database.db,
        sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
      );
      expect(tables.map((r) => r.table_name)).toEqual([
        "address_refunds",
        "address_transfers",
        "affiliates",
        "balance_topups",
        "chain_watchers",
        "coin_prices",
        "fx_held_rates",
        "fx_rates",
        "gift_card_batches",
        "gift_card_holds",
        "gift_cards",
        "idempotency_keys",
        "inventory_codes",
        "invoices",
        "ledger_entries",
        "merchant_credentials",
        "merchants",
        "orders",
        "paid_answers",
        "payment_addresses",
        "product_packages",
        "products",
        "settings",
        "settlements",
        "signer_nonces",
        "siwx_nonces",
        "upstream_purchases",
        "webhook_attempts",
        "webhook_deliveries",
        "webhook_endpoints",
      ]);
      expect(await queryRows(database.db, sql`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`)).toHaveLength(1);
      expect(prepared).toBe(1);
    } finally {
      await database.close();
    }
  });
});

// PGlite's own files: once, in the PGlite run (the PostgreSQL run has nothing of its own to add here).
describe.skipIf(testDriver === "postgres")("embedded database on disk", () => {
  it("keeps data across a restart", async () => {
    const dir = tempDir();
    const first = await openDatabase({ driver: "pglite", dataDir: dir });
    await first.db.insert(settings).values({ key: "probe", value: { n: 1 } });
    await first.close();
    const second = await openDatabase({ driver: "pglite", dataDir: dir });
    const rows = await second.db.select().from(settings);
    // The embedded server's page cache is kept small (PGLITE_START_PARAMS): it is resident memory for good.
    const buffers = await queryRows<{ shared_buffers: string }>(second.db, sql`SHOW shared_buffers`);
    await second.close();
    expect(rows.map((r) => r.value)).toEqual([{ n: 1 }]);
    expect(buffers).toEqual([{ shared_buffers: "16MB" }]);
  });

  it("creates the cluster of an empty folder in a child process, and leaves an existing one alone", async () => {
    const folder = pgliteFolder(tempDir());
    await createEmbeddedCluster(folder);
    const version = path.join(folder, "PG_VERSION");
    expect(fs.readFileSync(version, "utf8").trim()).toMatch(/^\d+$/);
    const created = fs.statSync(version).mtimeMs;
    await createEmbeddedCluster(folder);
    expect(fs.statSync(version).mtimeMs).toBe(created);
  });

  it("refuses a second live process, naming it, and takes over a stale lock", async () => {
    const dir = tempDir();
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(path.join(dir, "db.lock"), JSON.stringify({ pid: sleeper.pid, role: "server", since: "2026-11-21T00:00:00Z" }));
      const err = await lockDataDir(dir, "admin", 300).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).message).toMatch(new RegExp(`in use by another process \\(pid ${sleeper.pid}, server`));
    } finally {
      sleeper.kill();
      await new Promise((r) => sleeper.once("exit", r));
    }
    // The holder is gone: its lock is stale and is taken over.
    const release = await lockDataDir(dir, "admin", 300);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "db.lock"), "utf8")).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(path.join(dir, "db.lock"))).toBe(false);
  });
});

// The pool of a PostgreSQL server: in the PostgreSQL run only (PGlite has no pool; its own files are tested above).
describe.skipIf(testDriver !== "postgres")("the PostgreSQL pool", () => {
  it("takes back a checked-out connection that the server ended: a transaction whose BEGIN met it does not hold it for good", async () => {
    const server = process.env.TEST_DATABASE_URL!;
    const url = await createDatabase(server, "storefront_pool");
    const database = await openDatabase({ driver: "postgres", url, migrate: false, max: 1 });
    try {
      // The pool's one connection, checked out as a transaction's is, and ended by the server (a restart, a failover)
      // before its BEGIN: drizzle then never releases it.
      const client = await database.pool!.connect();
      const [{ pid }] = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows as [{ pid: number }];
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      await admin.end();
      // The pool serves again (it waited 5 s for a connection and failed, for good, before).
      expect(await queryRows(database.db, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
      // A release after all is no second release.
      client.release();
    } finally {
      await database.close();
      await dropDatabase(server, url);
    }
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BackupError, backupDataDir, hasDatabase, restoreDataDir } from "./backup";
import { DatabaseExistsError, MIGRATIONS_FOLDER, openDatabase, queryRows } from "./client";
import { openTestDatabase } from "@/test/db";

// PGlite only: backups of the embedded database (PostgreSQL has pg_dump). Each test restores into data folders of its
// own, a few seconds of CPU each: more time than the default on a busy machine.
vi.setConfig({ testTimeout: 90_000 });
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-backup-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const bytes = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

describe("backups of the embedded database", () => {
  it("dumps an open database between transactions: a transaction in flight is in the backup whole or not at all", async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`CREATE TABLE t (n int)`);
      let finish!: () => void;
      const open = new Promise<void>((r) => (finish = r));
      let inside!: () => void;
      const started = new Promise<void>((r) => (inside = r));
      const tx = database.db.transaction(async (t) => {
        await t.execute(sql`INSERT INTO t VALUES (1)`);
        inside();
        await open;
        await t.execute(sql`INSERT INTO t VALUES (2)`);
      });
      await started;
      const dumping = database.dump!();
      setTimeout(finish, 100);
      const [tarball] = await Promise.all([dumping, tx]);

      const target = tmp();
      expect(await restoreDataDir(target, await bytes(tarball))).toEqual({ invoices: 0, orders: 0 });
      const copy = await openDatabase({ driver: "pglite", dataDir: target });
      try {
        expect(await queryRows(copy.db, sql`SELECT n FROM t ORDER BY n`)).toEqual([{ n: 1 }, { n: 2 }]);
      } finally {
        await copy.close();
      }
    } finally {
      await database.close();
    }
  });

  it("brings an older backup up to date: the migrations run after the restore", async () => {
    // A database made by the previous version: every migration but the last.
    const older = path.join(tmp(), "migrations");
    fs.cpSync(MIGRATIONS_FOLDER, older, { recursive: true });
    const journalFile = path.join(older, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const last = journal.entries.pop()!;
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const source = tmp();
    fs.mkdirSync(source, { recursive: true });
    const client = await PGlite.create({ dataDir: path.join(source, "pglite"), extensions: { pg_trgm } });
    await migrate(drizzle({ client }), { migrationsFolder: older });
    await client.close();

    const tarball = await backupDataDir(source);
    expect(fs.existsSync(path.join(source, "db.lock"))).toBe(false);
    const target = tmp();
    await restoreDataDir(target, await bytes(tarball));
    const copy = await openDatabase({ driver: "pglite", dataDir: target, migrate: false });
    try {
      const applied = await queryRows<{ n: number }>(copy.db, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
      expect(applied).toEqual([{ n: journal.entries.length + 1 }]);
      expect(last.tag).toMatch(/^\d{4}_/);
    } finally {
      await copy.close();
    }
  });

  it("refuses a target that holds a database, a file that is not a backup, and a folder without a database to back up", async () => {
    const database = await openTestDatabase();
    const tarball = await bytes(await database.dump!());
    await database.close();

    const full = tmp();
    await (await openDatabase({ driver: "pglite", dataDir: full })).close();
    expect(hasDatabase(full)).toBe(true);
    await expect(restoreDataDir(full, tarball)).rejects.toBeInstanceOf(DatabaseExistsError);
    expect(hasDatabase(full)).toBe(true);

    const empty = tmp();
    await expect(restoreDataDir(empty, new TextEncoder().encode("not a tarball"), "notes.txt")).rejects.toThrow(
      /notes.txt is not a backup of the embedded database/,
    );
    await expect(restoreDataDir(empty, new Uint8Array([0x1f, 0x8b, 1, 2, 3]), "bad.tar.gz")).rejects.toThrow(
      /bad.tar.gz is not a backup of the embedded database: it is gzip but does not unpack/,
    );
    expect(fs.existsSync(path.join(empty, "pglite"))).toBe(false);

    await expect(backupDataDir(empty)).rejects.toBeInstanceOf(BackupError);
    expect(fs.existsSync(path.join(empty, "pglite"))).toBe(false);
  });
});

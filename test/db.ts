import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type Database, type Db } from "@/lib/platform/db/client";
import { createDatabase } from "@/lib/platform/db/create-database";
import { seedCatalogOnce } from "@/lib/catalog/seed";

/** What a test file's database is prepared with before its tests; a template's name when the run's template holds it. */
export type TestPrepare = ((db: Db) => Promise<void>) & { template?: "catalog" };

/**
 * The demo catalog with its test products, what most database tests start from. On PGlite the file's database is a copy
 * of the run's template that holds it already (vitest.global-setup.ts), and the seeding finds its marker and returns.
 */
export const withTestCatalog: TestPrepare = Object.assign((db: Db) => seedCatalogOnce(db, true), { template: "catalog" as const });

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or, when the test run sets
 * TEST_DB=postgres and TEST_DATABASE_URL (the vitest project "postgres" does), a new database created on that PostgreSQL server and dropped afterwards.
 */
export async function openTestDatabase(prepare?: TestPrepare): Promise<Database> {
  const serverUrl = process.env.TEST_DB === "postgres" ? process.env.TEST_DATABASE_URL : undefined;
  if (process.env.TEST_DB === "postgres" && !serverUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  if (!serverUrl) return openDatabase({ driver: "pglite-memory", loadDataDir: pgliteTemplate(prepare?.template) }, prepare);

  const url = await createDatabase(serverUrl, "storefront_test");
  const name = new URL(url).pathname.slice(1);
  const database = await openDatabase({ driver: "postgres", url }, prepare);
  return {
    ...database,
    driver: "postgres",
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * The embedded database in the folder `dataDir` (empty), as a server opens it, for tests of what a process leaves on
 * disk (crashes, the operator CLI): a copy of the run's template when the vitest project makes one (the catalog's when
 * `prepare` is `withTestCatalog`), else a new cluster.
 */
export async function openTestDataDir(dataDir: string, role: string, prepare?: TestPrepare): Promise<Database> {
  return openDatabase({ driver: "pglite", dataDir, role, loadDataDir: pgliteTemplate(prepare?.template) }, prepare);
}

const templates = new Map<string, Blob>();

/**
 * The run's migrated database (vitest.global-setup.ts), with the demo catalog for `catalog`, read once per test file;
 * none outside the vitest project that makes them.
 */
function pgliteTemplate(name: "catalog" | undefined): Blob | undefined {
  const file = inject("pgliteTemplates")?.[name ?? "empty"];
  if (!file) return undefined;
  let blob = templates.get(file);
  if (!blob) templates.set(file, (blob = new Blob([fs.readFileSync(file)])));
  return blob;
}

/** Which database the tests of this run use, for test names. */
export const testDriver = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

/**
 * Makes a test database the process's database (what `getDb()` returns), so route handlers can be called directly in
 * tests. Returns a function that puts the previous one back.
 */
export function useAsProcessDatabase(database: Database): () => void {
  const g = globalThis as typeof globalThis & { __storefrontDb?: Promise<Database> };
  const previous = g.__storefrontDb;
  g.__storefrontDb = Promise.resolve(database);
  return () => {
    g.__storefrontDb = previous;
  };
}

/**
 * For a test file that calls route handlers: opens its database before its tests (prepared by `prepare`), hands it to
 * `use`, and makes it the process's database until the file's tests are done; then puts the previous one back and
 * closes it. Call it at the top of the file.
 */
export function processTestDatabase(use: (database: Database) => void, prepare?: TestPrepare): void {
  let database: Database | undefined;
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(prepare);
    restore = useAsProcessDatabase(database);
    use(database);
  });
  afterAll(async () => {
    restore?.();
    await database?.close();
  });
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/platform/config";
import { getDb, type Database } from "@/lib/platform/db";
import { createDatabase, dropDatabase } from "@/lib/platform/db/create-database";
import { countProducts } from "@/lib/catalog/store";
import { getProduct } from "@/lib/catalog/get-product";
import { STORE_GIFT_CARD_SLUG } from "@/lib/catalog/store-products";
import { testDriver } from "@/test/db";
import { openShopDatabase } from "./start";

// The database a server opens at start, in the process's own place (DATABASE_URL, else DATA_DIR): a new one of this
// file's, set before the configuration is first read.
const serverUrl = testDriver === "postgres" ? process.env.TEST_DATABASE_URL : undefined;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
let dataDir: string | undefined;
let database: Database | undefined;

beforeAll(async () => {
  if (serverUrl) process.env.DATABASE_URL = await createDatabase(serverUrl, "storefront_test");
  else {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-start-"));
  }
});

afterAll(async () => {
  await database?.close();
  (globalThis as typeof globalThis & { __storefrontDb?: unknown }).__storefrontDb = undefined;
  if (serverUrl && process.env.DATABASE_URL) await dropDatabase(serverUrl, process.env.DATABASE_URL);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe(`the server's database at start on ${testDriver}`, () => {
  it("opens a new database migrated and seeded with the demo catalog on the devnet: the database getDb() answers", { timeout: 180_000 }, async () => {
    // The configuration names this file's database, not another (it was not read before this file set it).
    expect(serverUrl ? config().databaseUrl : config().dataDir).toBe(serverUrl ? process.env.DATABASE_URL : dataDir);
    expect(config()).toMatchObject({ networkMode: "devnet", seedDemoCatalog: true });
    database = await openShopDatabase();
    expect(await countProducts(database.db)).toBeGreaterThanOrEqual(500);
    expect(await getProduct("test-gift-card-code", database.db)).toMatchObject({ isTest: true });
    expect(await getProduct(STORE_GIFT_CARD_SLUG, database.db)).toMatchObject({ supplier: "store" });
    expect(await getDb()).toBe(database.db);
    // Opened once: the start's second call (a dev server's reload) gets the same database.
    expect(await openShopDatabase()).toBe(database);
  });
});

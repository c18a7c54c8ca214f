import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as backupRoute } from "@/app/api/admin/backup/route";
import { openDatabase, type Database } from "@/lib/platform/db/client";
import { invoices, orders } from "@/lib/platform/db/schema";
import { openTestDataDir, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { createDemoProvider } from "@/lib/fulfilment/providers/demo";
import { item, partlyFailedInvoice, TEST_PAYER } from "@/test/fulfilment";
import { createInvoice } from "@/lib/checkout";
import { runAdmin, serveRoutes } from "./testing";

// A "shop server": this test process holds the embedded database in `live` (role server, as `npm start` does) and
// serves the admin backup route on loopback. The CLI runs as a child process, sees the holder, and asks the route.
const TOKEN = "adm_backup_test_token_0123456789abcdef";
process.env.ADMIN_TOKEN = TOKEN;

let root: string;
let live: string;
let database: Database;
let putBack: () => void;
let shop: Awaited<ReturnType<typeof serveRoutes>>;
let env: Record<string, string>;

const dir = (name: string) => path.join(root, name);
const ids = async (db: Database["db"]) => await db.select({ id: invoices.id, status: invoices.status }).from(invoices).orderBy(asc(invoices.id));
const orderRows = async (db: Database["db"]) =>
  await db.select({ id: orders.id, invoiceId: orders.invoiceId, status: orders.status }).from(orders).orderBy(asc(orders.id));

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-backup-"));
  live = dir("live");
  database = await openTestDataDir(live, "server", withTestCatalog);
  // A paid invoice with a delivered and a failed order, and an unpaid one.
  await partlyFailedInvoice(database.db, TEST_PAYER, createDemoProvider("admin backup test key"));
  await createInvoice({ items: [item("test-gift-card-code", "20")], payer: TEST_PAYER }, database.db);
  putBack = useAsProcessDatabase(database);
  shop = await serveRoutes([{ method: "POST", path: /^\/api\/admin\/backup$/, handler: backupRoute }]);
  env = { PORT: String(shop.port), ADMIN_TOKEN: TOKEN };
});
afterAll(async () => {
  await shop?.close();
  putBack?.();
  await database?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe("npm run admin -- backup / restore", () => {
  it("takes a backup through the running server, and restores it into a new data folder with the same invoices", async () => {
    const file = dir("shop.tar.gz");
    const backup = await runAdmin(["backup", file], live, env);
    expect(backup.out).toContain(`Backed up the embedded database in ${path.join(live, "pglite")} to ${file}:`);
    expect(backup.out).toContain(`taken by the running shop server (pid ${process.pid})`);
    expect(backup.code).toBe(0);
    const bytes = fs.readFileSync(file);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(root).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    const restored = await runAdmin(["restore", file], dir("new"));
    expect(restored.out).toContain(`into ${path.join(dir("new"), "pglite")}: 2 invoice(s), 3 order(s); migrations applied.`);
    expect(restored.code).toBe(0);

    const copy = await openDatabase({ driver: "pglite", dataDir: dir("new"), role: "test" });
    try {
      expect(await ids(copy.db)).toEqual(await ids(database.db));
      expect(await orderRows(copy.db)).toEqual(await orderRows(database.db));
      expect((await ids(copy.db)).map((i) => i.status).sort()).toEqual(["complete", "unpaid"]);
    } finally {
      await copy.close();
    }
  });

  it("takes a backup itself when no server holds the data folder", async () => {
    const file = dir("offline.tar.gz");
    const { code, out } = await runAdmin(["backup", file], dir("new"));
    expect(out).toContain("taken with no server running");
    expect(code).toBe(0);
    expect(fs.existsSync(path.join(dir("new"), "db.lock"))).toBe(false);
  });

  it("refuses: an existing FILE without --force, a folder that holds a database, a folder a server holds, a file that is no backup", async () => {
    const file = dir("kept.tar.gz");
    fs.writeFileSync(file, "keep me");
    expect(await runAdmin(["backup", file], live, env)).toMatchObject({
      code: 2,
      out: expect.stringContaining(`${file} already exists: give another FILE, or --force to replace it.`),
    });
    expect(fs.readFileSync(file, "utf8")).toBe("keep me");
    expect(await runAdmin(["backup", file, "--force"], live, env)).toMatchObject({ code: 0 });
    expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    expect(await runAdmin(["restore", file], dir("new"))).toMatchObject({
      code: 2,
      out: expect.stringContaining(`${path.join(dir("new"), "pglite")} already holds a database: a backup is restored into an empty data folder.`),
    });
    expect(await runAdmin(["restore", file], live)).toMatchObject({
      code: 2,
      out: expect.stringContaining(`The embedded database in ${live} is in use by another process (pid ${process.pid}, server`),
    });
    const notBackup = dir("catalog.json");
    fs.writeFileSync(notBackup, "[]");
    expect(await runAdmin(["restore", notBackup], dir("empty"))).toMatchObject({
      code: 2,
      out: expect.stringContaining("catalog.json is not a backup of the embedded database"),
    });
    expect(fs.existsSync(path.join(dir("empty"), "pglite"))).toBe(false);
  });

  it("points to pg_dump and pg_restore on PostgreSQL", async () => {
    const postgres = { DATABASE_URL: "postgres://shop@127.0.0.1:1/shop" };
    expect(await runAdmin(["backup", dir("pg.tar.gz")], dir("pg"), postgres)).toMatchObject({
      code: 2,
      out: expect.stringContaining('pg_dump -Fc "$DATABASE_URL" > shop.dump'),
    });
    expect(await runAdmin(["restore", dir("shop.tar.gz")], dir("pg"), postgres)).toMatchObject({
      code: 2,
      out: expect.stringContaining('pg_restore -d "$DATABASE_URL" shop.dump'),
    });
    expect(fs.existsSync(dir("pg.tar.gz"))).toBe(false);

    // A server on PostgreSQL answers the route with 409.
    const back = useAsProcessDatabase({ db: database.db, driver: "postgres", close: async () => undefined });
    try {
      const res = await backupRoute(new Request("http://shop.test/api/admin/backup", { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } }), {
        params: Promise.resolve({}),
      });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error_code: "not_embedded", message: expect.stringContaining("pg_dump -Fc") });
    } finally {
      back();
    }
  });

  it("needs the admin token: the route refuses without it, the CLI says what to set", async () => {
    const res = await backupRoute(new Request("http://shop.test/api/admin/backup", { method: "POST" }), { params: Promise.resolve({}) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: "unauthorized" });
    const wrong = await backupRoute(
      new Request("http://shop.test/api/admin/backup", { method: "POST", headers: { Authorization: "Bearer adm_wrong_token_0123456789abcdef" } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(wrong.status).toBe(401);

    // Outside devnet mode no token is generated: with none set, the CLI cannot ask the server.
    const { code, out } = await runAdmin(["backup", dir("no-token.tar.gz")], live, { ...env, ADMIN_TOKEN: "", NETWORK_MODE: "testnet" });
    expect(out).toContain(`The shop server (pid ${process.pid}) holds the embedded database in ${live}`);
    expect(out).toContain("Set ADMIN_TOKEN");
    expect(code).toBe(2);
    expect(fs.existsSync(dir("no-token.tar.gz"))).toBe(false);
  });
});

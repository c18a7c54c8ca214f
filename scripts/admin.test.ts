import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getProduct } from "@/lib/catalog/get-product";
import { openDatabase } from "@/lib/platform/db/client";
import { openTestDataDir } from "@/test/db";
import { IMPORT_PRODUCTS, closedPort } from "./testing";
import { runAdminHere } from "./testing-here";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

// In this process (runAdminHere): no test here plays the shop server that holds the data folder.
const admin = runAdminHere;

/** A new data folder that holds a migrated database (a copy of the run's template), as after the shop's first start. */
async function migratedDataDir(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-"));
  dirs.push(dir);
  await (await openTestDataDir(dir, "server")).close();
  return dir;
}

const products = IMPORT_PRODUCTS;

describe("npm run admin -- catalog import", () => {
  it("imports the valid rows into the embedded database and reports the rejected ones", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-"));
    dirs.push(dir);
    const file = path.join(dir, "catalog.json");
    fs.writeFileSync(file, JSON.stringify(products));
    const { code, out } = await admin(["catalog", "import", file], dir);
    expect(out).toContain("2 row(s) read, imported 1, rejected 1.");
    expect(out).toMatch(/row 2 \(broken\):\n\s+- country: give a country, or a coverage list/);
    expect(code).toBe(1);
    const database = await openDatabase({ driver: "pglite", dataDir: dir });
    try {
      expect((await getProduct("kpn-topup", database.db))?.packages.map((p) => p.value)).toEqual(["10", "20"]);
    } finally {
      await database.close();
    }
  });

  it("refuses, without touching the data, while another admin command holds the embedded database", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-"));
    dirs.push(dir);
    const file = path.join(dir, "catalog.json");
    fs.writeFileSync(file, JSON.stringify(products.slice(0, 1)));
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(path.join(dir, "db.lock"), JSON.stringify({ pid: other.pid, role: "admin stock import", since: new Date().toISOString() }));
      const { code, out } = await admin(["catalog", "import", file], dir);
      expect(code).toBe(2);
      expect(out).toContain(`is in use by another process (pid ${other.pid}, admin stock import`);
      expect(out).toContain("Stop that process first, or use a PostgreSQL server (DATABASE_URL)");
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    } finally {
      other.kill();
    }
  });

  it("goes to the shop server that holds the embedded database, and says so when it cannot reach it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-"));
    dirs.push(dir);
    const file = path.join(dir, "catalog.json");
    fs.writeFileSync(file, JSON.stringify(products.slice(0, 1)));
    const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(path.join(dir, "db.lock"), JSON.stringify({ pid: server.pid, role: "server", since: new Date().toISOString() }));
      const port = await closedPort();
      const { code, out } = await admin(["catalog", "import", file], dir, { PORT: String(port) });
      expect(code).toBe(1);
      expect(out).toContain(`Cannot reach the shop at http://127.0.0.1:${port}`);
      expect(out).toContain(`The shop server (pid ${server.pid}`);
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    } finally {
      server.kill();
    }
  });

  it("explains a missing file and an unknown command", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-"));
    dirs.push(dir);
    expect(await admin(["catalog", "import", path.join(dir, "nope.json")], dir)).toMatchObject({ code: 2, out: expect.stringContaining("File not found") });
    expect(await admin(["catalog", "launch"], dir)).toMatchObject({ code: 2, out: expect.stringContaining("Unknown command") });
  });
});

describe("npm run admin -- stock", () => {
  it("imports codes for a package, reports bad rows, and shows the levels", async () => {
    const dir = await migratedDataDir();
    const catalog = path.join(dir, "catalog.json");
    fs.writeFileSync(catalog, JSON.stringify([{ ...products[1], country: "NL" }]));
    expect(await admin(["catalog", "import", catalog], dir)).toMatchObject({ code: 0 });

    const file = path.join(dir, "codes.csv");
    fs.writeFileSync(file, "code,pin\nAAAA-1111,12\nBBBB-2222,34\nAAAA-1111,56\n");
    const first = await admin(["stock", "import", "--product", "broken", "--package", "10", file], dir);
    expect(first.out).toContain("line 4: the same code as line 2");
    expect(first.out).toContain("3 row(s) read: imported 2 code(s) for broken 10, 0 already in stock, 1 rejected.");
    expect(first.code).toBe(1);
    fs.writeFileSync(file, "CCCC-3333\nAAAA-1111\n");
    expect(await admin(["stock", "import", "--product", "broken", "--package", "10", file], dir)).toMatchObject({
      code: 0,
      out: expect.stringContaining("imported 1 code(s) for broken 10, 1 already in stock, 0 rejected."),
    });

    const levels = await admin(["stock", "levels"], dir);
    expect(levels.code).toBe(0);
    expect(
      levels.out
        .split("\n")
        .slice(0, 2)
        .map((l) => l.split(/\s+/)),
    ).toEqual([
      ["product", "package", "available", "reserved", "sold"],
      ["broken", "10", "3", "0", "0"],
    ]);
    expect(JSON.parse((await admin(["stock", "levels", "--json", "--product", "broken"], dir)).out)).toEqual([
      { productId: "broken", productName: "Broken", packageValue: "10", available: 3, reserved: 0, sold: 0 },
    ]);
  });

  it("names what is wrong: a missing option, an unknown package", async () => {
    const dir = await migratedDataDir();
    const catalog = path.join(dir, "catalog.json");
    fs.writeFileSync(catalog, JSON.stringify([{ ...products[1], country: "NL" }]));
    await admin(["catalog", "import", catalog], dir);
    const file = path.join(dir, "codes.csv");
    fs.writeFileSync(file, "AAAA\n");
    expect(await admin(["stock", "import", "--product", "broken", file], dir)).toMatchObject({
      code: 2,
      out: expect.stringContaining("needs --product, --package and a FILE"),
    });
    expect(await admin(["stock", "import", "--product", "broken", "--package", "25", file], dir)).toMatchObject({
      code: 2,
      out: expect.stringContaining('"25" is not a package of broken: its packages are "10"'),
    });
  });
});

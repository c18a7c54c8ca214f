import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { getProduct } from "@/lib/catalog/get-product";
import { openDatabase } from "@/lib/db/client";

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function admin(args: string[], dataDir: string): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const products = [
  {
    slug: "kpn-topup",
    name: "KPN Top-up",
    kind: "topup",
    brand: "KPN",
    country: "NL",
    currency: "EUR",
    description: "Airtime for KPN.",
    redemptionInstructions: "Credited in minutes.",
    recipientType: "phone_number",
    phonePrefixes: ["+316"],
    packages: [{ value: "10" }, { value: "20" }],
  },
  { slug: "broken", name: "Broken", kind: "gift_card", brand: "B", currency: "EUR", description: "d", redemptionInstructions: "r", packages: [{ value: "10" }] },
];

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

  it("refuses, without touching the data, while a server holds the embedded database", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-"));
    dirs.push(dir);
    const file = path.join(dir, "catalog.json");
    fs.writeFileSync(file, JSON.stringify(products.slice(0, 1)));
    const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(path.join(dir, "db.lock"), JSON.stringify({ pid: server.pid, role: "server", since: new Date().toISOString() }));
      const { code, out } = await admin(["catalog", "import", file], dir);
      expect(code).toBe(2);
      expect(out).toContain(`is in use by another process (pid ${server.pid}, server`);
      expect(out).toContain("Stop that process first, or use a PostgreSQL server (DATABASE_URL)");
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

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as catalogImportRoute } from "@/app/api/admin/catalog/import/route";
import { POST as markPaidRoute } from "@/app/api/admin/refunds/[id]/mark-paid/route";
import { GET as refundsRoute } from "@/app/api/admin/refunds/route";
import { POST as stockImportRoute } from "@/app/api/admin/stock/import/route";
import { GET as stockLevelsRoute } from "@/app/api/admin/stock/levels/route";
import { GET as showMerchantRoute } from "@/app/api/admin/merchants/[id]/route";
import { POST as createMerchantRoute } from "@/app/api/admin/merchants/route";
import { getProduct } from "@/lib/catalog/get-product";
import type { Database } from "@/lib/platform/db/client";
import { openTestDataDir, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { createDemoProvider } from "@/lib/fulfilment/providers/demo";
import { partlyFailedInvoice, TEST_PAYER, TEST_PAYMENT } from "@/test/fulfilment";
import { getMerchant } from "@/lib/merchants";
import { recordServer, SERVER_RECORD_FILE } from "@/lib/server/address-record";
import { IMPORT_PRODUCTS, closedPort, runAdmin, serveRoutes } from "./testing";

// While a shop server holds the embedded database, catalog, stock and refunds commands go through its admin API and
// print what they print when they open the database themselves (see admin.test.ts, admin-refunds.test.ts). Here this
// test process is the server: it holds the data folder (role server) and serves the admin routes on loopback; the
// CLI, a child process, could not open the database if it tried.
const TOKEN = "adm_shop_cli_test_token_0123456789abcdef";
process.env.ADMIN_TOKEN = TOKEN;

let dir: string;
let database: Database;
let putBack: () => void;
let shop: Awaited<ReturnType<typeof serveRoutes>>;
let invoiceId: string;

const admin = (args: string[], env: Record<string, string> = {}) => runAdmin(args, dir, { PORT: String(shop.port), ADMIN_TOKEN: TOKEN, ...env });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-shop-"));
  database = await openTestDataDir(dir, "server", withTestCatalog);
  invoiceId = await partlyFailedInvoice(database.db, TEST_PAYER, createDemoProvider("admin shop test key"));
  putBack = useAsProcessDatabase(database);
  shop = await serveRoutes([
    { method: "POST", path: /^\/api\/admin\/catalog\/import$/, handler: catalogImportRoute },
    { method: "POST", path: /^\/api\/admin\/stock\/import$/, handler: stockImportRoute },
    { method: "GET", path: /^\/api\/admin\/stock\/levels$/, handler: stockLevelsRoute },
    { method: "GET", path: /^\/api\/admin\/refunds$/, handler: refundsRoute },
    { method: "POST", path: /^\/api\/admin\/refunds\/(?<id>[^/]+)\/mark-paid$/, handler: markPaidRoute },
    { method: "POST", path: /^\/api\/admin\/merchants$/, handler: createMerchantRoute },
    { method: "GET", path: /^\/api\/admin\/merchants\/(?<id>[^/]+)$/, handler: showMerchantRoute },
  ]);
});
afterAll(async () => {
  await shop?.close();
  putBack?.();
  await database?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const products = IMPORT_PRODUCTS;

describe("admin commands while a shop server holds the embedded database", () => {
  it("catalog import goes through POST /api/admin/catalog/import", async () => {
    const file = path.join(dir, "catalog.json");
    fs.writeFileSync(file, JSON.stringify(products));
    const { code, out } = await admin(["catalog", "import", file]);
    expect(out).toContain("2 row(s) read, imported 1, rejected 1.");
    expect(out).toMatch(/row 2 \(broken\):\n\s+- country: give a country, or a coverage list/);
    expect(code).toBe(1);
    expect((await getProduct("kpn-topup", database.db))?.packages.map((p) => p.value)).toEqual(["10", "20"]);
  });

  it("stock import and stock levels go through the stock routes, with the same output and refusals", async () => {
    const catalog = path.join(dir, "gift.json");
    fs.writeFileSync(catalog, JSON.stringify([{ ...products[1], country: "NL" }]));
    expect(await admin(["catalog", "import", catalog])).toMatchObject({ code: 0 });

    const file = path.join(dir, "codes.csv");
    fs.writeFileSync(file, "code,pin\nAAAA-1111,12\nBBBB-2222,34\nAAAA-1111,56\n");
    const first = await admin(["stock", "import", "--product", "broken", "--package", "10", file]);
    expect(first.out).toContain("line 4: the same code as line 2");
    expect(first.out).toContain("3 row(s) read: imported 2 code(s) for broken 10, 0 already in stock, 1 rejected.");
    expect(first.code).toBe(1);
    expect(await admin(["stock", "import", "--product", "broken", "--package", "25", file])).toMatchObject({
      code: 2,
      out: expect.stringContaining('"25" is not a package of broken: its packages are "10"'),
    });

    const levels = await admin(["stock", "levels"]);
    expect(levels.code).toBe(0);
    expect(
      levels.out
        .split("\n")
        .slice(0, 2)
        .map((l) => l.split(/\s+/)),
    ).toEqual([
      ["product", "package", "available", "reserved", "sold"],
      ["broken", "10", "2", "0", "0"],
    ]);
    expect(JSON.parse((await admin(["stock", "levels", "--json", "--product", "broken"])).out)).toEqual([
      { productId: "broken", productName: "Broken", packageValue: "10", available: 2, reserved: 0, sold: 0 },
    ]);
  });

  it("refunds list and mark-paid go through the refunds routes, with the same output and refusals", async () => {
    const listed = await admin(["refunds", "list"]);
    expect(listed.code).toBe(0);
    const [header, row] = listed.out.split("\n").map((l) => l.split(/\s{2,}/));
    expect(header).toEqual(["invoice", "network", "to", "orders", "usdc", "since", "last error"]);
    expect(row!.slice(0, 5)).toEqual([invoiceId, TEST_PAYMENT.network, TEST_PAYMENT.payer, "1", "10.000000"]);
    const json = JSON.parse((await admin(["refunds", "list", "--json"])).out) as Record<string, unknown>[];
    expect(json).toMatchObject([{ invoiceId, network: TEST_PAYMENT.network, paymentPayer: TEST_PAYMENT.payer, orders: 1, amountUsdc: "10000000" }]);
    expect(Object.keys(json[0]!)).toEqual(["invoiceId", "payer", "network", "paymentPayer", "orders", "amountUsdc", "since", "lastError"]);

    expect(await admin(["refunds", "mark-paid", invoiceId, "--tx", "0x1234"])).toMatchObject({
      code: 1,
      out: expect.stringContaining("is not an EVM transaction hash"),
    });
    const tx = `0x${"d5".repeat(32)}`;
    expect(await admin(["refunds", "mark-paid", invoiceId, "--tx", tx])).toMatchObject({
      code: 0,
      out: `Marked 1 order(s) of ${invoiceId} refunded by ${tx}.\n`,
    });
    expect(await admin(["refunds", "list"])).toMatchObject({ code: 0, out: "No refund is due.\n" });
  });

  it("says where it looked when the server cannot be reached", async () => {
    const port = await closedPort();
    const { code, out } = await admin(["refunds", "list"], { PORT: String(port) });
    expect(out).toContain(`Cannot reach the shop at http://127.0.0.1:${port}`);
    expect(out).toContain(`The shop server (pid ${process.pid}`);
    expect(out).toContain("pass --url if it listens elsewhere");
    expect(code).toBe(1);
    expect(await admin(["stock", "levels", "--url", shop.base], { PORT: String(port) })).toMatchObject({ code: 0 });
  });

  it("merchant commands find the running shop by the address it recorded in DATA_DIR, on whatever port; --url and PORT still choose", async () => {
    // No PORT: before the shop recorded itself the command could only try port 3000.
    const noPort = { PORT: "" };
    const forget = recordServer(dir, { url: shop.base, mode: "devnet" });
    let merchantId: string;
    try {
      const created = await admin(["merchant", "create", "--name", "Found the shop", "--credit", "5", "--json"], noPort);
      expect(created.code).toBe(0);
      merchantId = (JSON.parse(created.out) as { merchant_id: string }).merchant_id;
      expect((await getMerchant(database.db, merchantId))?.name).toBe("Found the shop");

      const elsewhere = await closedPort();
      expect(await admin(["merchant", "show", merchantId], { PORT: String(elsewhere) })).toMatchObject({
        code: 1,
        out: expect.stringContaining(`Cannot reach the shop at http://127.0.0.1:${elsewhere}`),
      });
      expect(await admin(["merchant", "show", merchantId, "--url", `http://127.0.0.1:${elsewhere}`], noPort)).toMatchObject({ code: 1 });
      expect(await admin(["merchant", "show", merchantId, "--url", shop.base], { PORT: String(elsewhere) })).toMatchObject({
        code: 0,
        out: expect.stringContaining('"balance": 500'),
      });
    } finally {
      forget();
    }
    // Stopped, the shop's record is gone; one left by a process that ended (killed) is not followed either.
    expect(fs.existsSync(path.join(dir, SERVER_RECORD_FILE))).toBe(false);
    const ended = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => ended.once("exit", r));
    fs.writeFileSync(path.join(dir, SERVER_RECORD_FILE), JSON.stringify({ pid: ended.pid, url: shop.base, mode: "devnet", since: new Date().toISOString() }));
    const stale = await admin(["merchant", "show", merchantId], noPort);
    expect(stale.code).toBe(1);
    expect(stale.out).not.toContain(shop.base);
    fs.rmSync(path.join(dir, SERVER_RECORD_FILE));
  });

  it("the routes validate their bodies and cap them", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const call = (body: string, headers: Record<string, string> = auth) =>
      catalogImportRoute(new Request("http://shop.test/api/admin/catalog/import", { method: "POST", headers, body }), { params: Promise.resolve({}) });
    expect((await call('{"rows": "x"}')).status).toBe(400);
    expect(await (await call('{"rows": [], "extra": 1}')).json()).toMatchObject({ error_code: "invalid_param" });
    expect(await (await call("{")).json()).toMatchObject({ error_code: "parse_error" });
    expect((await call('{"rows": []}', {})).status).toBe(401);
    const big = await call(JSON.stringify({ rows: ["x".repeat(21 * 1024 * 1024)] }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error_code: "payload_too_large" });

    const mark = await markPaidRoute(new Request("http://shop.test/", { method: "POST", headers: auth, body: JSON.stringify({ tx: "0x12", more: true }) }), {
      params: Promise.resolve({ id: invoiceId }),
    });
    expect(mark.status).toBe(400);
    const levels = await stockLevelsRoute(new Request("http://shop.test/api/admin/stock/levels?product=x", { headers: auth }), { params: Promise.resolve({}) });
    expect(levels.status).toBe(400);
  });
});

// `npm run admin -- stock ...`: codes the operator sells from their own stock.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { STOCK_REFUSED, stockImportReportWire, stockLevelsWire } from "@/lib/api/admin/wire";
import { withDatabase } from "@/lib/platform/db";
import { importStock, parseStockFile, stockLevels, type StockCode, type StockImportReport, type StockLevel } from "@/lib/catalog/stock";
import { ShopRefusal, shopHoldingData, shopJson, type Shop } from "./admin-shop";
import { DomainError } from "@/lib/platform/errors";

export const STOCK_HELP = `  stock import --product SLUG --package VALUE FILE.csv [--dry-run] [--url URL]
      Adds gift card codes to the stock of one package. The file is CSV with a header naming
      code (and optionally pin, expiration_date as YYYY-MM-DD), or one code per line. Bad rows
      are reported and skipped; codes already in stock are left alone. From the first import on,
      the product's orders are served from its stock: each code is sold to exactly one order.
  stock levels [--product SLUG] [--json] [--url URL]
      Codes available, reserved by open invoices, and sold, per package.`;

/** Runs a `stock` command; returns the exit code (1 when some rows were rejected, 2 for a usage error). */
export async function stockCommand(command: string | undefined, args: string[]): Promise<number> {
  if (command === "import") return stockImport(args);
  if (command === "levels") return levels(args);
  console.error(`Unknown stock command: ${command ?? "(none)"}\n\n${STOCK_HELP}`);
  return 2;
}

async function stockImport(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { product: { type: "string" }, package: { type: "string" }, "dry-run": { type: "boolean", default: false }, url: { type: "string" } },
  });
  const file = positionals[0];
  if (!values.product || !values.package || !file) {
    console.error(`stock import needs --product, --package and a FILE.\n\n${STOCK_HELP}`);
    return 2;
  }
  const { rows, rejected } = parseStockFile(fs.readFileSync(file, "utf8"));
  for (const r of rejected) console.log(`  line ${r.line}: ${r.error}`);
  if (values["dry-run"]) {
    console.log(`${rows.length + rejected.length} row(s) read: ${rows.length} code(s) would be imported, ${rejected.length} rejected.`);
    return rejected.length > 0 ? 1 : 0;
  }
  const input = { productId: values.product, packageValue: values.package, codes: rows, batch: `${path.basename(file)} ${new Date().toISOString()}` };
  const shop = shopHoldingData(values.url);
  const report = shop ? await importThroughShop(shop, input) : await withDatabase("admin stock import", (db) => importStock(db, input));
  console.log(
    `${rows.length + rejected.length} row(s) read: imported ${report.imported} code(s) for ${report.productId} ${report.packageValue}, ` +
      `${report.alreadyStocked} already in stock, ${rejected.length} rejected.`,
  );
  return rejected.length > 0 ? 1 : 0;
}

async function levels(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { product: { type: "string" }, json: { type: "boolean", default: false }, url: { type: "string" } } });
  const shop = shopHoldingData(values.url);
  const rows = shop
    ? await shopJson(
        shop,
        "GET",
        `/api/admin/stock/levels${values.product !== undefined ? `?product_id=${encodeURIComponent(values.product)}` : ""}`,
        stockLevelsWire,
      )
    : await withDatabase("admin stock levels", (db) => stockLevels(db, values.product));
  if (values.json) console.log(JSON.stringify(rows, null, 2));
  else console.log(rows.length === 0 ? "No product is sold from stock yet: see `stock import`." : table(rows));
  return 0;
}

/** The same import through the running shop (POST /api/admin/stock/import); its refusal is the domain's. */
async function importThroughShop(
  shop: Shop,
  input: { productId: string; packageValue: string; codes: StockCode[]; batch: string },
): Promise<StockImportReport> {
  const body = {
    product_id: input.productId,
    package_value: input.packageValue,
    batch: input.batch,
    codes: input.codes.map((c) => ({ code: c.code, pin: c.pin, expiration_date: c.expirationDate })),
  };
  try {
    return await shopJson(shop, "POST", "/api/admin/stock/import", stockImportReportWire, body);
  } catch (err) {
    if (err instanceof ShopRefusal && err.code === STOCK_REFUSED) throw new DomainError("stock_refused", err.reason);
    throw err;
  }
}

function table(rows: StockLevel[]): string {
  const cells = [
    ["product", "package", "available", "reserved", "sold"],
    ...rows.map((r) => [r.productId, r.packageValue, String(r.available), String(r.reserved), String(r.sold)]),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  return cells.map((c) => c.map((v, i) => (i >= 2 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ")).join("\n");
}

// Operator commands: `npm run admin -- <command>`. See `npm run admin -- help`.
import "@/lib/wiring";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { importReportWire } from "@/lib/api/admin/wire";
import { ConfigError } from "@/lib/platform/config";
import { ImportFormatError, importCatalog, parseCatalogFile, validateCatalogRows, type ImportReport } from "@/lib/catalog/import";
import { BackupError } from "@/lib/platform/db/backup";
import { DatabaseExistsError } from "@/lib/platform/db/client";
import { DataDirLockedError } from "@/lib/platform/db/lock";
import { withDatabase } from "@/lib/platform/db";
import { StockFileError } from "@/lib/catalog/stock";
import { BACKUP_HELP, backupCommand, restoreCommand } from "./admin-backup";
import { MERCHANT_HELP, merchantCommand } from "./admin-merchant";
import { REFUNDS_HELP, refundsCommand } from "./admin-refunds";
import { ShopError, shopHoldingData, shopJson } from "./admin-shop";
import { STOCK_HELP, stockCommand } from "./admin-stock";
import { SUPPLY_HELP, supplyCommand } from "./admin-supply";
import { DomainError } from "@/lib/platform/errors";

const HELP = `Usage: npm run admin -- <command>

Commands:
  catalog import FILE [--format json|csv] [--dry-run] [--url URL]
      Adds or replaces products (by slug) from a JSON or CSV file. Rows that fail validation are
      reported and skipped; the valid rows are imported in one transaction.
${STOCK_HELP}
${REFUNDS_HELP}
${BACKUP_HELP}
${MERCHANT_HELP}
${SUPPLY_HELP}

Environment: DATA_DIR or DATABASE_URL select the database, as for the server. The embedded database opens in one
process at a time: while the shop server holds it, catalog, stock, refunds, supply and backup go through the server's admin
API (--url; by default the shop server that recorded its address in DATA_DIR/server.json, or http://127.0.0.1:$PORT
when PORT is set; ADMIN_TOKEN, or in devnet mode the token the server generated under DATA_DIR); otherwise they open
the database themselves.`;

function printReport(report: ImportReport, dryRun: boolean) {
  const verb = dryRun ? "would import" : "imported";
  console.log(`${report.total} row(s) read, ${verb} ${report.imported}, rejected ${report.rejected.length}.`);
  for (const r of report.rejected) {
    console.log(`  row ${r.row}${r.slug ? ` (${r.slug})` : ""}:`);
    for (const e of r.errors) console.log(`    - ${e}`);
  }
}

async function catalogImport(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: "string" }, "dry-run": { type: "boolean", default: false }, url: { type: "string" } },
  });
  const file = positionals[0];
  if (!file) {
    console.error("catalog import needs a FILE.\n\n" + HELP);
    return 2;
  }
  const format = values.format ?? (path.extname(file).toLowerCase() === ".csv" ? "csv" : "json");
  if (format !== "json" && format !== "csv") {
    console.error(`--format must be json or csv, not ${format}`);
    return 2;
  }
  const rows = parseCatalogFile(fs.readFileSync(file, "utf8"), format);
  if (values["dry-run"]) {
    const { valid, rejected } = validateCatalogRows(rows);
    printReport({ imported: valid.length, rejected, total: rows.length }, true);
    return rejected.length > 0 ? 1 : 0;
  }
  const shop = shopHoldingData(values.url);
  const report = shop
    ? await shopJson(shop, "POST", "/api/admin/catalog/import", importReportWire, { rows })
    : await withDatabase("admin catalog import", (db) => importCatalog(db, rows));
  printReport(report, false);
  return report.rejected.length > 0 ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group === "catalog" && command === "import") return catalogImport(rest);
  if (group === "stock") return stockCommand(command, rest);
  if (group === "refunds") return refundsCommand(command, rest);
  if (group === "merchant") return merchantCommand(command, rest);
  if (group === "supply") return supplyCommand(command, rest);
  if (group === "backup") return backupCommand(argv.slice(1));
  if (group === "restore") return restoreCommand(argv.slice(1));
  if (!group || group === "help" || group === "--help") {
    console.log(HELP);
    return 0;
  }
  console.error(`Unknown command: ${argv.join(" ")}\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ShopError) {
      console.error(err.message);
      process.exit(err.exitCode);
    }
    if (
      err instanceof DataDirLockedError ||
      err instanceof BackupError ||
      err instanceof DatabaseExistsError ||
      err instanceof ConfigError ||
      err instanceof ImportFormatError ||
      (err instanceof DomainError && err.code === "stock_refused") ||
      err instanceof StockFileError
    ) {
      console.error(err.message);
    } else if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      console.error(`File not found: ${(err as NodeJS.ErrnoException).path}`);
    } else {
      console.error(err);
    }
    process.exit(2);
  },
);

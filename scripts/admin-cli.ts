// The operator commands of `npm run admin -- <command>` (scripts/admin.ts runs them in a process of their own; the CLI
// tests run most of them in theirs). See `npm run admin -- help`.
// Each command's module is loaded when that command runs: a command loads what it uses, not every other's.
import "@/lib/wiring";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ImportReport } from "@/lib/catalog/import";

/** The usage text: each command group's part comes from its module, loaded to print it. */
async function help(): Promise<string> {
  const [{ STOCK_HELP }, { REFUNDS_HELP }, { BACKUP_HELP }, { MERCHANT_HELP }, { SUPPLY_HELP }] = await Promise.all([
    import("./admin-stock"),
    import("./admin-refunds"),
    import("./admin-backup"),
    import("./admin-merchant"),
    import("./admin-supply"),
  ]);
  return `Usage: npm run admin -- <command>

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
}

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
    console.error("catalog import needs a FILE.\n\n" + (await help()));
    return 2;
  }
  const format = values.format ?? (path.extname(file).toLowerCase() === ".csv" ? "csv" : "json");
  if (format !== "json" && format !== "csv") {
    console.error(`--format must be json or csv, not ${format}`);
    return 2;
  }
  const { importCatalog, parseCatalogFile, validateCatalogRows } = await import("@/lib/catalog/import");
  const rows = parseCatalogFile(fs.readFileSync(file, "utf8"), format);
  if (values["dry-run"]) {
    const { valid, rejected } = validateCatalogRows(rows);
    printReport({ imported: valid.length, rejected, total: rows.length }, true);
    return rejected.length > 0 ? 1 : 0;
  }
  const { shopHoldingData, shopJson } = await import("./admin-shop");
  const shop = shopHoldingData(values.url);
  let report: ImportReport;
  if (shop) {
    const { importReportWire } = await import("@/lib/api/admin/wire");
    report = await shopJson(shop, "POST", "/api/admin/catalog/import", importReportWire, { rows });
  } else {
    const { withDatabase } = await import("@/lib/platform/db");
    report = await withDatabase("admin catalog import", (db) => importCatalog(db, rows));
  }
  printReport(report, false);
  return report.rejected.length > 0 ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group === "catalog" && command === "import") return catalogImport(rest);
  if (group === "stock") return (await import("./admin-stock")).stockCommand(command, rest);
  if (group === "refunds") return (await import("./admin-refunds")).refundsCommand(command, rest);
  if (group === "merchant") return (await import("./admin-merchant")).merchantCommand(command, rest);
  if (group === "supply") return (await import("./admin-supply")).supplyCommand(command, rest);
  if (group === "backup") return (await import("./admin-backup")).backupCommand(argv.slice(1));
  if (group === "restore") return (await import("./admin-backup")).restoreCommand(argv.slice(1));
  if (!group || group === "help" || group === "--help") {
    console.log(await help());
    return 0;
  }
  console.error(`Unknown command: ${argv.join(" ")}\n\n${await help()}`);
  return 2;
}

/** What a failed command prints, and its exit code: the operator's mistakes by their message, the rest in full. */
async function explain(err: unknown): Promise<number> {
  const [
    { ShopError },
    { ConfigError },
    { ImportFormatError },
    { BackupError },
    { DatabaseExistsError },
    { DataDirLockedError },
    { StockFileError },
    { DomainError },
  ] = await Promise.all([
    import("./admin-shop"),
    import("@/lib/platform/config"),
    import("@/lib/catalog/import"),
    import("@/lib/platform/db/backup"),
    import("@/lib/platform/db/client"),
    import("@/lib/platform/db/lock"),
    import("@/lib/catalog/stock"),
    import("@/lib/platform/errors"),
  ]);
  if (err instanceof ShopError) {
    console.error(err.message);
    return err.exitCode;
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
  return 2;
}

/** Runs the command `argv` names; answers its exit code, having printed what went wrong if it failed. */
export async function adminCommand(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (err) {
    return explain(err);
  }
}

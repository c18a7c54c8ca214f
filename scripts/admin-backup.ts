// `npm run admin -- backup FILE` / `restore FILE`: backups of the embedded database (PGlite), taken while the shop runs.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "@/lib/platform/config";
import { BackupError, backupDataDir, restoreDataDir } from "@/lib/platform/db/backup";
import { pgliteFolder } from "@/lib/platform/db/client";
import { callShop, ShopError, shopHoldingData } from "./admin-shop";

export const BACKUP_HELP = `  backup FILE [--force] [--url URL]
      Writes a backup of the embedded database (PGlite's own dump of its data folder, a .tar.gz) to FILE, while
      the shop runs: the running server takes it (POST /api/admin/backup); with no server running, the command
      opens the data folder itself. An existing FILE is left alone unless --force.
  restore FILE
      Loads a backup into DATA_DIR, which must hold no database yet and no running server (a new DATA_DIR),
      applies the migrations (a backup from an older version is brought up to date), and counts what it holds.
      Start the shop on that DATA_DIR afterwards.
      On PostgreSQL (DATABASE_URL), use its own tools: pg_dump -Fc "$DATABASE_URL" > shop.dump and
      pg_restore -d "$DATABASE_URL" shop.dump.`;

const ON_POSTGRES_BACKUP = 'DATABASE_URL is set: the shop runs on PostgreSQL. Back it up with its own tool: pg_dump -Fc "$DATABASE_URL" > shop.dump';
const ON_POSTGRES_RESTORE =
  'DATABASE_URL is set: the shop runs on PostgreSQL. Restore a pg_dump -Fc dump with its own tool: pg_restore -d "$DATABASE_URL" shop.dump';

/** `backup FILE [--force] [--url URL]`; returns the exit code (2 for a refusal or a usage error). */
export async function backupCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { force: { type: "boolean", default: false }, url: { type: "string" } } });
  const file = positionals[0];
  if (!file || positionals.length > 1) return usage("backup needs one FILE.");
  const c = config();
  if (c.databaseUrl) {
    console.error(ON_POSTGRES_BACKUP);
    return 2;
  }
  const target = path.resolve(file);
  if (fs.existsSync(target) && !values.force) throw exists(target);

  const shop = shopHoldingData(values.url);
  let bytes: Uint8Array;
  if (shop) {
    const res = await callShop(shop, "POST", "/api/admin/backup", {});
    bytes = new Uint8Array(await res.arrayBuffer());
    if (!(res.headers.get("content-type") ?? "").startsWith("application/gzip") || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
      throw new ShopError(`The shop at ${shop.base} did not answer a backup (a .tar.gz): is it the same version?`);
    }
  } else {
    bytes = new Uint8Array(await (await backupDataDir(c.dataDir)).arrayBuffer());
  }
  writeAtomically(target, bytes, values.force);
  const how = shop ? `taken by the running shop server (pid ${shop.holder.pid})` : "taken with no server running";
  console.log(`Backed up the embedded database in ${pgliteFolder(c.dataDir)} to ${target}: ${size(bytes.length)}, ${how}.`);
  return 0;
}

/** `restore FILE`; returns the exit code (2 for a refusal or a usage error). */
export async function restoreCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const file = positionals[0];
  if (!file || positionals.length > 1) return usage("restore needs one FILE.");
  const c = config();
  if (c.databaseUrl) {
    console.error(ON_POSTGRES_RESTORE);
    return 2;
  }
  const source = path.resolve(file);
  const bytes = fs.readFileSync(source);
  const report = await restoreDataDir(c.dataDir, bytes, path.basename(source));
  console.log(
    `Restored ${source}, ${size(bytes.length)}, into ${pgliteFolder(c.dataDir)}: ${report.invoices} invoice(s), ${report.orders} order(s); ` +
      "migrations applied. Start the shop on this DATA_DIR.",
  );
  return 0;
}

function exists(target: string): BackupError {
  return new BackupError(`${target} already exists: give another FILE, or --force to replace it.`);
}

/**
 * Writes the backup to a temporary file beside the target, flushed to disk, then puts it in place in one step: a
 * reader never sees half a backup. Without `force`, a hard link puts it there, which fails rather than replace a
 * file that appeared meanwhile.
 */
function writeAtomically(target: string, bytes: Uint8Array, force: boolean): void {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = fs.openSync(tmp, "wx", 0o600);
  try {
    fs.writeFileSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    if (force) fs.renameSync(tmp, target);
    else {
      try {
        fs.linkSync(tmp, target);
        fs.rmSync(tmp);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") throw exists(target);
        // A file system without hard links: check, then rename.
        if (fs.existsSync(target)) throw exists(target);
        fs.renameSync(tmp, target);
      }
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function size(bytes: number): string {
  return `${bytes} bytes (${(bytes / (1024 * 1024)).toFixed(1)} MB)`;
}

function usage(problem: string): number {
  console.error(`${problem}\n\n${BACKUP_HELP}`);
  return 2;
}

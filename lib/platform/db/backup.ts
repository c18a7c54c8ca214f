import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { count } from "drizzle-orm";
import { openDatabase, pgliteFolder } from "./client";
import { dataDirHolder } from "./lock";
import { invoices, orders } from "./schema";

/** A backup or restore that cannot be done; the message says why and what to do instead. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** Whether DATA_DIR holds an embedded database (PGlite writes PG_VERSION when it creates one). */
export function hasDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(pgliteFolder(dataDir), "PG_VERSION"));
}

/**
 * Takes a backup of the embedded database in `dataDir` when no other process holds it: opens it (as it is: no
 * migration) under the data folder's lock, dumps it and closes it. A shop server that holds the folder is asked
 * instead (POST /api/admin/backup).
 */
export async function backupDataDir(dataDir: string): Promise<Blob> {
  if (!hasDatabase(dataDir)) throw new BackupError(`There is no embedded database in ${pgliteFolder(dataDir)} to back up.`);
  const database = await openDatabase({ driver: "pglite", dataDir, role: "admin backup", migrate: false });
  try {
    return await database.dump!();
  } finally {
    await database.close();
  }
}

/** What a restore found in the database it loaded. */
export type RestoreReport = { invoices: number; orders: number };

/**
 * Loads a backup (a tarball made by `dump()`, gzipped or not) into `dataDir`, which no live process may hold and
 * whose PGlite folder must be empty or absent (else DatabaseExistsError), then applies the migrations: a backup
 * taken by an older version is brought up to date.
 */
export async function restoreDataDir(dataDir: string, backup: Uint8Array, name = "backup.tar.gz"): Promise<RestoreReport> {
  const holder = dataDirHolder(dataDir);
  if (holder) {
    throw new BackupError(
      `The embedded database in ${dataDir} is in use by another process (pid ${holder.pid}, ${holder.role}, since ${holder.since}). ` +
        "A backup is restored into an empty data folder that no process holds: restore into a new DATA_DIR, then start the shop on it.",
    );
  }
  const gzipped = isGzip(backup);
  checkTarball(gzipped ? gunzip(backup, name) : backup, name);
  const file = new File([new Uint8Array(backup)], name, { type: gzipped ? "application/gzip" : "application/x-tar" });
  const database = await openDatabase({ driver: "pglite", dataDir, role: "admin restore", loadDataDir: file });
  try {
    const [i] = await database.db.select({ n: count() }).from(invoices);
    const [o] = await database.db.select({ n: count() }).from(orders);
    return { invoices: i?.n ?? 0, orders: o?.n ?? 0 };
  } finally {
    await database.close();
  }
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function gunzip(bytes: Uint8Array, name: string): Uint8Array {
  try {
    return gunzipSync(bytes);
  } catch (err) {
    throw new BackupError(`${name} is not a backup of the embedded database: it is gzip but does not unpack (${(err as Error).message}).`);
  }
}

/**
 * Refuses, before anything is written, a file that is not a tarball of a PostgreSQL data folder: it must name
 * PG_VERSION among its entries (tar headers: the name in the first 100 bytes, the size in octal at 124).
 */
function checkTarball(tar: Uint8Array, name: string): void {
  const text = new TextDecoder("latin1");
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const entry = text.decode(header.subarray(0, 100)).replace(/\0.*$/s, "");
    const size = parseInt(text.decode(header.subarray(124, 136)).replace(/\0.*$/s, "").trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) break;
    if (entry.replace(/^\.?\/+/, "") === "PG_VERSION") return;
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new BackupError(`${name} is not a backup of the embedded database: it holds no PostgreSQL data folder (made by npm run admin -- backup).`);
}

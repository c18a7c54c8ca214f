import fs from "node:fs";
import path from "node:path";

/** Thrown when another live process holds the embedded database. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${holder.pid}, ${holder.role}, since ${holder.since}). ` +
        "PGlite lets one process open it at a time. Stop that process first, or use a PostgreSQL server (DATABASE_URL).",
    );
    this.name = "DataDirLockedError";
  }
}

export type LockInfo = { pid: number; role: string; since: string };

/** Whether a process of this id runs (a lock or record left by a process that ended names a dead one). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
    return typeof info.pid === "number" ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Reports who holds the data folder, if a live process does. */
export function dataDirHolder(dataDir: string): LockInfo | undefined {
  const holder = readLock(path.join(dataDir, "db.lock"));
  return holder && holder.pid !== process.pid && isAlive(holder.pid) ? holder : undefined;
}

/**
 * Takes the data folder for this process: one process at a time may open the embedded database.
 * A lock left by a process that no longer runs is taken over. Waits up to `waitMs` for a live holder
 * (a dev server restarting its worker) before giving up. Returns a function that releases the lock.
 */
export async function lockDataDir(dataDir: string, role: string, waitMs = 3000): Promise<() => void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "db.lock");
  const mine: LockInfo = { pid: process.pid, role, since: new Date().toISOString() };
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = readLock(file);
      if (!holder || holder.pid === process.pid || !isAlive(holder.pid)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (Date.now() >= deadline) throw new DataDirLockedError(dataDir, holder);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    // A process that opens and closes the database again and again (the CLI tests) keeps no listener per opening.
    process.off("exit", release);
    if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.once("exit", release);
  return release;
}

import fs from "node:fs";
import path from "node:path";

// Where a running shop server listens, kept in its data folder (`<dataDir>/shop.json`) for the tools run beside it on
// the same machine (`npm run agent` finds the devnet shop by it): the loopback URL of its port, and its pid, so that
// a record left by a server that ended is known for what it is.

export type ShopAddress = { url: string; pid: number; since: string };

const FILE = "shop.json";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Records this server's address in its data folder: http://127.0.0.1:PORT (the port Next.js listens on, which it
 * gives in PORT once listening). Nothing without a port. Returns a function that removes the record, if still ours.
 */
export function recordShopAddress(dataDir: string, port = process.env.PORT): () => void {
  const n = Number(port);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) return () => {};
  const file = path.join(dataDir, FILE);
  const mine: ShopAddress = { url: `http://127.0.0.1:${n}`, pid: process.pid, since: new Date().toISOString() };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(mine) + "\n");
  return () => {
    if (readRecord(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
}

function readRecord(file: string): ShopAddress | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ShopAddress>;
    return typeof r.url === "string" && typeof r.pid === "number" && typeof r.since === "string" ? { url: r.url, pid: r.pid, since: r.since } : undefined;
  } catch {
    return undefined;
  }
}

/** The address a live shop server recorded in `dataDir`, if one did (a record of a server that ended is none). */
export function readShopAddress(dataDir: string): ShopAddress | undefined {
  const r = readRecord(path.join(dataDir, FILE));
  return r && isAlive(r.pid) ? r : undefined;
}

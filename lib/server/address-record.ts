import fs from "node:fs";
import path from "node:path";
import { isAlive } from "@/lib/platform/db/lock";

/**
 * Where a shop server listens, written to `<dataDir>/server.json` once it is ready and removed at its stop: the
 * operator's commands on the same machine (`npm run admin`) find the shop of this data folder by it, on whatever port
 * it runs (`next dev -p 3005`, PORT=…, or the next free port that `next dev` took). Not a secret: a pid and a URL.
 */
export type ServerRecord = { pid: number; url: string; mode: string; since: string };

export const SERVER_RECORD_FILE = "server.json";

/**
 * The port this process listens on: Next.js sets PORT to the one it bound (`-p`, or the free one it moved to) before
 * the server starts up; `fallback` (the configured PORT) otherwise.
 */
export function listeningPort(fallback: number, env: Record<string, string | undefined> = process.env): number {
  const port = Number(env.PORT);
  return Number.isInteger(port) && port > 0 && port <= 65535 ? port : fallback;
}

/** Records this process as the shop of `dataDir`, reached at `url`; answers a function that removes the record. */
export function recordServer(dataDir: string, record: Omit<ServerRecord, "pid" | "since">): () => void {
  const file = path.join(dataDir, SERVER_RECORD_FILE);
  const mine: ServerRecord = { pid: process.pid, ...record, since: new Date().toISOString() };
  fs.mkdirSync(dataDir, { recursive: true });
  // Written whole under another name, then moved into place: a reader never sees half a record.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(mine) + "\n");
  fs.renameSync(tmp, file);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    if (readRecord(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.once("exit", remove);
  return remove;
}

/** The shop server recorded in `dataDir`, if that process still runs. */
export function recordedServer(dataDir: string): ServerRecord | undefined {
  const record = readRecord(path.join(dataDir, SERVER_RECORD_FILE));
  return record && isAlive(record.pid) ? record : undefined;
}

function readRecord(file: string): ServerRecord | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ServerRecord>;
    return typeof r.pid === "number" && typeof r.url === "string" && URL.canParse(r.url)
      ? { pid: r.pid, url: r.url, mode: String(r.mode), since: String(r.since) }
      : undefined;
  } catch {
    return undefined;
  }
}

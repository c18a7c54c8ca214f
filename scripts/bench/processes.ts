// The processes the benchmark starts besides the shop: the bare Next.js route (its baseline) and a PostgreSQL server.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, stopServer, untilAnswering } from "../shop-server";
import { descendants } from "../process-tree";

const BARE_APP = path.join(import.meta.dirname, "bare-route", "app");
const NEXT_BIN = "node_modules/next/dist/bin/next";

/**
 * Builds the bare app and starts it with `next start`, as the shop is. It is built in a folder of its own (a copy of
 * scripts/bench/bare-route with this project's node_modules linked in): inside the project, Next.js would take the
 * shop's instrumentation.ts for its own.
 */
export async function startBareRoute(opts: { emptyProxy?: boolean } = {}): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-bare-"));
  fs.cpSync(BARE_APP, path.join(dir, "app"), { recursive: true });
  // With `emptyProxy`, a proxy that passes every request on untouched: what running one at all costs (proxy-cost.ts).
  if (opts.emptyProxy)
    fs.writeFileSync(path.join(dir, "proxy.js"), `import { NextResponse } from "next/server";\nexport function proxy() { return NextResponse.next(); }\n`);
  fs.symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "bare-route", private: true }));
  // The linked node_modules is outside the folder: Turbopack's root has to hold both.
  fs.writeFileSync(path.join(dir, "next.config.mjs"), `export default { poweredByHeader: false, turbopack: { root: "/" } };\n`);
  const built = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: dir, stdio: "pipe", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (built.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`building the bare route failed:\n${built.stdout}\n${built.stderr}`);
  }
  const port = await freePort();
  const server = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], { cwd: dir, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/products`;
  const stop = () => stopServer(server, dir);
  await untilAnswering(url, server, stop, "the bare route");
  return { url, pid: server.pid, stop };
}

/**
 * A PostgreSQL server for the PostgreSQL figures: BENCH_DATABASE_URL when set (a server to create databases on), else
 * a throwaway one started with scripts/postgres-test-server.sh when Debian's postgresql is installed (as root), else none.
 */
export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> } | null> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: async () => {} };
  if (!fs.existsSync("/usr/lib/postgresql") || process.getuid?.() !== 0) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-pg-"));
  const port = await freePort();
  const url = execFileSync("scripts/postgres-test-server.sh", ["start", String(port), dir], { encoding: "utf8" }).trim();
  return { url, stop: async () => void execFileSync("scripts/postgres-test-server.sh", ["stop", dir]) };
}

/** A Node.js process and its Node.js children (Linux): the server, not the local chains or the database it runs. */
function nodeTree(pid: number): number[] {
  return [pid, ...descendants(pid)].filter((p) => {
    try {
      return /^Name:\s+(node|next-server)/m.test(fs.readFileSync(`/proc/${p}/status`, "utf8"));
    } catch {
      return false;
    }
  });
}

/** Resident memory of a Node.js process and its Node.js children, in MB (Linux): the server, not the local chains it runs. */
export function residentMb(pid: number | undefined): number | undefined {
  if (!pid || !fs.existsSync(`/proc/${pid}/status`)) return undefined;
  let kb = 0;
  for (const p of nodeTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

/** The kernel's clock ticks per second, in which /proc gives CPU time. */
let ticksPerSecond: number | undefined;

/** CPU time used so far by a Node.js process and its Node.js children, in ms (Linux; user and system, all threads). */
export function cpuMs(pid: number | undefined): number | undefined {
  if (!pid || !fs.existsSync(`/proc/${pid}/stat`)) return undefined;
  return nodeTree(pid).reduce((sum, p) => sum + ownCpuMs(p), 0);
}

/** CPU time used so far by one process of any kind (a chain's node), in ms (Linux; user and system, all threads). */
export function ownCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (1000 * (Number(fields[11]) + Number(fields[12]))) / ticksPerSecond;
  } catch {
    return 0;
  }
}

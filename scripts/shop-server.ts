// Starts the production build (`next start`) on a free port and a fresh data folder, for the benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A loopback port nothing listens on (taken, then given back). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * The heap ceiling the shop runs with (`npm start` and the Docker image set `--max-old-space-size` to it; a test keeps
 * the three the same). Without a ceiling Node.js sizes the heap by the machine's memory and collects late.
 */
export const SHOP_HEAP_MB = 512;
/**
 * The young generation's semi-space, in MB: Node.js's 16 MB default keeps up to 48 MB of short-lived objects (a
 * request's JSON) resident; at 4 MB they are collected sooner, at no measurable cost to throughput (ARCHITECTURE.md, "Memory").
 */
export const SHOP_SEMI_SPACE_MB = 4;
/** The Node.js flags of the shop's process, as `npm start`, the Docker image and the benchmarks give them. */
export const SHOP_NODE_OPTIONS = `--max-old-space-size=${SHOP_HEAP_MB} --max-semi-space-size=${SHOP_SEMI_SPACE_MB}`;
/**
 * glibc's malloc threshold, in bytes, from which a block gets a mapping of its own (given back to the kernel when
 * freed). Left to itself, glibc raises it, and with it the size of free memory an arena keeps instead of giving it
 * back, each time a large block is freed, up to 32 MB and 64 MB: after a burst of requests (response bodies,
 * compression buffers, PGlite's results) 40 to 60 MB stays resident in the arenas for good. Set, it stays put, and so
 * does the trim threshold (128 KB). At 1 MB, requests' blocks still come from the arenas, as fast as before
 * (ARCHITECTURE.md, "Memory"). `npm start` and the Docker image set the same.
 */
export const SHOP_MALLOC_MMAP_THRESHOLD = 1_048_576;
/**
 * How much free memory at the top of an arena glibc keeps before giving it back: the 128 KB that comes with a set mmap
 * threshold gave back, and took again, a response's worth of memory on nearly every request (a compression stream's
 * buffers freed at its end, then the next body's): 15-20 % of the product list's throughput on PostgreSQL went to
 * those system calls and page faults. At 4 MB the arenas keep that much at most (ARCHITECTURE.md, "Memory").
 */
export const SHOP_MALLOC_TRIM_THRESHOLD = 4_194_304;

export type RunningShop = { baseURL: string; pid: number | undefined; stop(): Promise<void> };

export async function startShop(env: Record<string, string> = {}): Promise<RunningShop> {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("No production build: run `npm run build` first.");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-"));
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      NEXT_MANUAL_SIG_HANDLE: "true",
      NODE_OPTIONS: SHOP_NODE_OPTIONS,
      MALLOC_MMAP_THRESHOLD_: String(SHOP_MALLOC_MMAP_THRESHOLD),
      MALLOC_TRIM_THRESHOLD_: String(SHOP_MALLOC_TRIM_THRESHOLD),
      ...env,
    },
    // SHOP_LOG=FILE keeps the server's output (its log lines, a crash's reason) for a benchmark that went wrong.
    stdio: process.env.SHOP_LOG ? ["ignore", fs.openSync(process.env.SHOP_LOG, "a"), fs.openSync(process.env.SHOP_LOG, "a")] : "ignore",
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = () => stopServer(server, dataDir);
  await untilAnswering(baseURL, server, stop, "the shop");
  return { baseURL, pid: server.pid, stop };
}

/** Stops a server this script started (SIGTERM, then its exit) and removes its folder. */
export async function stopServer(server: ChildProcess, dir: string): Promise<void> {
  if (server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Waits until `url` answers 200 (a minute at most); if the server exits or never answers, stops it and throws. */
export async function untilAnswering(url: string, server: ChildProcess, stop: () => Promise<void>, what: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    if (i > 300 || server.exitCode !== null) {
      await stop();
      throw new Error(`${what} did not start`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { format, promisify } from "node:util";
import { vi } from "vitest";

const run = promisify(execFile);

/**
 * Runs `npm run admin -- <args>` as the operator would, against the embedded database in `dataDir`; `env` adds to or
 * overrides the environment (PORT of a test shop, ADMIN_TOKEN, DATABASE_URL…).
 */
export async function runAdmin(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const all = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", ...env };
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env: all, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/**
 * Runs an admin command as `runAdmin` does, in this process: the same code (scripts/admin-cli.ts) and exit code, and
 * what it printed to stdout and stderr, without a `tsx` process of its own (about two seconds of CPU each). The
 * environment is `runAdmin`'s for the command's time, and its modules are loaded anew, as in a new process: the config
 * it parses is the one of that environment. Not for a test where this process holds the data folder as the shop
 * server: the lock tells its holder by the pid, and the command must be another process to be refused or sent through
 * the shop (admin-through-shop.test.ts and admin-backup.test.ts keep `runAdmin`).
 */
export async function runAdminHere(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: "", ...env });
  const out: string[] = [];
  const print = (...parts: unknown[]) => void out.push(`${format(...parts)}\n`);
  const write = (chunk: string | Uint8Array) => {
    out.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return true;
  };
  const consoleWas = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  const writeWas = { out: process.stdout.write, err: process.stderr.write };
  Object.assign(console, { log: print, info: print, warn: print, error: print });
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  try {
    vi.resetModules();
    const { adminCommand } = await import("./admin-cli");
    return { code: await adminCommand(args), out: out.join("") };
  } finally {
    Object.assign(console, consoleWas);
    process.stdout.write = writeWas.out;
    process.stderr.write = writeWas.err;
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's params shape
type RouteHandler = (req: Request, ctx: { params: Promise<any> }) => Promise<Response>;

/** A route of a test shop: the method, the path (named groups are the route's params) and the handler. */
export type TestRoute = { method: string; path: RegExp; handler: RouteHandler };

/**
 * A loopback HTTP server that serves route handlers as `next start` would, for CLI tests: the admin CLI, run as a
 * child process, reaches it on `port`.
 */
export async function serveRoutes(routes: TestRoute[]): Promise<{ base: string; port: number; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route = routes.find((r) => r.method === req.method && r.path.test(url.pathname));
    if (!route) {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error_code":"not_found","message":"No such route"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const params = Object.fromEntries(Object.entries(route.path.exec(url.pathname)?.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    const request = new Request(url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const answer = await route.handler(request, { params: Promise.resolve(params) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A loopback port nothing listens on: a shop that is not running. */
export { freePort as closedPort } from "./shop-server";

/** A catalog file for the import commands: one valid product, one that is refused (no country). */
export const IMPORT_PRODUCTS = [
  {
    slug: "kpn-topup",
    name: "KPN Top-up",
    kind: "topup",
    brand: "KPN",
    country: "NL",
    currency: "EUR",
    description: "Airtime for KPN.",
    redemptionInstructions: "Credited in minutes.",
    recipientType: "phone_number",
    phonePrefixes: ["+316"],
    packages: [{ value: "10" }, { value: "20" }],
  },
  {
    slug: "broken",
    name: "Broken",
    kind: "gift_card",
    brand: "B",
    currency: "EUR",
    description: "d",
    redemptionInstructions: "r",
    packages: [{ value: "10" }],
  },
];

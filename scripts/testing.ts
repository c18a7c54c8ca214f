import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";

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

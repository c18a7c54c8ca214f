// A second shop for the upstream tests, in a process of its own (its own configuration, in-memory database and catalog): the
// shop's real route handlers of /api/v2 and /api/admin served over HTTP by node:http, without a Next.js build, and
// its fulfilment and webhooks drained every 100 ms. Started by lib/supply/testing.ts (`startUpstreamShop`), which gives it PORT,
// DATA_DIR and ADMIN_TOKEN; prints READY when it answers. Payments are offline: merchants pay from their balance.
import "@/lib/wiring";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getDb, prepareDatabase, type Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { drainDue } from "@/lib/fulfilment";
import { drainWebhooks } from "@/lib/webhooks";
import { installInProcessPayments, offlineSolanaNetwork } from "@/lib/payments/testing";
import { READY } from "./testing";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Route = { segments: string[]; file: string; module?: Record<string, Handler> };

/** Every route.ts under these folders of app/, as its path's segments (`[id]` dynamic, `[[...path]]` the rest). */
function routes(root: string, dirs: string[]): Route[] {
  const found: Route[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") found.push({ segments: path.relative(root, dir).split(path.sep), file: full });
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  // Static segments before dynamic ones before the catch-all, as Next.js matches.
  const rank = (s: string) => (s.startsWith("[[...") ? 2 : s.startsWith("[") ? 1 : 0);
  return found.sort((a, b) => {
    for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
      const d = rank(a.segments[i] ?? "") - rank(b.segments[i] ?? "");
      if (d !== 0) return d;
    }
    return b.segments.length - a.segments.length;
  });
}

function match(route: Route, parts: string[]): Record<string, string | string[]> | undefined {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const s = route.segments[i]!;
    if (s.startsWith("[[...")) {
      params[s.slice(5, -2)] = parts.slice(i);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (s.startsWith("[")) params[s.slice(1, -1)] = decodeURIComponent(part);
    else if (s !== part) return undefined;
  }
  return parts.length === route.segments.length ? params : undefined;
}

async function main() {
  const port = Number(process.env.PORT);
  // An in-memory database (a test's shop keeps nothing), opened beside the payments.
  (globalThis as typeof globalThis & { __storefrontDb?: Promise<Database> }).__storefrontDb = openDatabase({ driver: "pglite-memory" }, prepareDatabase);
  await installInProcessPayments([await offlineSolanaNetwork("Solana (offline)")]);
  const db = await getDb();
  const table = routes(path.resolve("app"), ["api/v2", "api/admin"]);
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
      const parts = url.pathname.split("/").filter(Boolean);
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      for (const route of table) {
        const params = match(route, parts);
        if (!params) continue;
        route.module ??= (await import(pathToFileURL(route.file).href)) as Record<string, Handler>;
        const handler = route.module[req.method ?? "GET"];
        if (!handler) continue;
        const request = new Request(url, {
          method: req.method,
          headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        });
        const answer = await handler(request, { params: Promise.resolve(params) });
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
        return;
      }
      res.writeHead(404).end();
    } catch (err) {
      console.error(err);
      res.writeHead(500).end();
    }
  });
  server.listen(port, "127.0.0.1", () => console.log(READY));
  let draining = false;
  setInterval(() => {
    if (draining) return;
    draining = true;
    Promise.all([drainDue(db), drainWebhooks(db)])
      .catch((err) => console.error(err))
      .finally(() => (draining = false));
  }, 100);
  process.on("SIGTERM", () => process.exit(0));
}

void main();

import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { RpcError } from "./ledger";
import type { RpcMethod } from "./rpc-methods";

const MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

type JsonRpcId = string | number | null;
type JsonRpcResponse =
  { jsonrpc: "2.0"; id: JsonRpcId; result: unknown } | { jsonrpc: "2.0"; id: JsonRpcId; error: { code: number; message: string; data?: unknown } };

export type RpcServer = { url: string; close(): Promise<void> };

/**
 * Serves JSON-RPC 2.0 (single requests and batches) over HTTP POST on 127.0.0.1 and a free port. Only loopback
 * clients are answered, and only with a loopback Host header (no DNS rebinding); browsers may call it from
 * loopback origins only (CORS).
 */
export async function startRpcServer(methods: Record<string, RpcMethod>): Promise<RpcServer> {
  const server = http.createServer((req, res) => {
    handle(methods, req, res).catch((err: unknown) => {
      console.error("Solana devnet RPC:", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function handle(methods: Record<string, RpcMethod>, req: http.IncomingMessage, res: http.ServerResponse) {
  if (!LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? "") || !isLoopbackHost(req.headers.host)) {
    return send(res, 403, "text/plain", "Forbidden");
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (!isLoopbackOrigin(origin)) return send(res, 403, "text/plain", "Forbidden origin");
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Vary", "Origin");
  }
  if (req.method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "POST, GET, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", req.headers["access-control-request-headers"] ?? "content-type");
    res.setHeader("Access-Control-Max-Age", "600");
    return send(res, 204);
  }
  if (req.method === "GET" && req.url === "/health") return send(res, 200, "text/plain", "ok");
  if (req.method !== "POST") return send(res, 405, "text/plain", "Method Not Allowed");

  const body = await readBody(req);
  if (body === null) return send(res, 413, "text/plain", "Payload Too Large");

  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return sendJson(res, errorResponse(null, -32700, "Parse error"));
  }
  if (Array.isArray(request)) {
    if (request.length === 0) return sendJson(res, errorResponse(null, -32600, "Invalid request"));
    const responses: JsonRpcResponse[] = [];
    for (const r of request) {
      const response = await call(methods, r);
      if (response) responses.push(response);
    }
    return responses.length > 0 ? sendJson(res, responses) : send(res, 204);
  }
  const response = await call(methods, request);
  return response ? sendJson(res, response) : send(res, 204);
}

/** One JSON-RPC call; no response for a notification (no `id`). */
async function call(methods: Record<string, RpcMethod>, request: unknown): Promise<JsonRpcResponse | undefined> {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return errorResponse(null, -32600, "Invalid request");
  }
  const r = request as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const id: JsonRpcId = typeof r.id === "string" || typeof r.id === "number" ? r.id : null;
  const isNotification = !("id" in r);
  if (r.jsonrpc !== "2.0" || typeof r.method !== "string") return errorResponse(id, -32600, "Invalid request");
  if (r.params !== undefined && !Array.isArray(r.params)) return errorResponse(id, -32602, "Invalid params: expected an array");
  const method = Object.hasOwn(methods, r.method) ? methods[r.method] : undefined;
  if (!method) return isNotification ? undefined : errorResponse(id, -32601, "Method not found");
  try {
    const result = await method((r.params as unknown[] | undefined) ?? []);
    return isNotification ? undefined : { jsonrpc: "2.0", id, result };
  } catch (err) {
    if (isNotification) return undefined;
    if (err instanceof RpcError) return errorResponse(id, err.code, err.message, err.data);
    console.error(`Solana devnet RPC ${r.method}:`, err);
    return errorResponse(id, -32603, `Internal error: ${(err as Error).message}`);
  }
}

function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, status: number, contentType?: string, body?: string) {
  if (contentType) res.setHeader("Content-Type", contentType);
  res.writeHead(status);
  res.end(body);
}

function sendJson(res: http.ServerResponse, value: unknown) {
  send(res, 200, "application/json", stringifyWithBigInts(value));
}

/** JSON with bigints written as plain numbers, which @solana/kit reads back as bigints. */
const BIGINT_MARKER = `__bigint_${randomBytes(6).toString("hex")}__`;

export function stringifyWithBigInts(value: unknown): string {
  const marker = BIGINT_MARKER;
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${marker}${v.toString()}` : v instanceof Uint8Array ? Array.from(v) : v));
  return text.replace(new RegExp(`"${marker}(-?\\d+)"`, "g"), "$1");
}

function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return LOOPBACK_HOSTS.has(name ?? "");
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

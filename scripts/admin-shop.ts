// How an operator command reaches the data. PGlite opens in one process at a time: while a shop server holds the
// embedded database, the command goes through that server's admin API (/api/admin, bearer ADMIN_TOKEN); otherwise
// (no server running, or PostgreSQL) it opens the database itself.
import type { z } from "zod";
import { adminErrorWire } from "@/lib/api/admin/wire";
import { config } from "@/lib/platform/config";
import { dataDirHolder, type LockInfo } from "@/lib/platform/db/lock";
import { adminToken } from "@/lib/merchants/admin-token";
import { recordedServer } from "@/lib/server/address-record";

/**
 * The shop's base URL: --url; else PORT when it is set (http://127.0.0.1:$PORT); else the shop server recorded in the
 * data folder (DATA_DIR/server.json, written by a running shop with the port it listens on: `next dev -p 3005` or the
 * next free port are found); else http://127.0.0.1:3000.
 */
export function shopUrl(url?: string, env: Record<string, string | undefined> = process.env): string {
  const c = config();
  const recorded = url || env.PORT ? undefined : recordedServer(c.dataDir);
  return (url || recorded?.url || `http://127.0.0.1:${c.port}`).replace(/\/+$/, "");
}

/** What the CLI could not do through the shop; printed as it is, the process ends with `exitCode`. */
export class ShopError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = "ShopError";
  }
}

/** The shop answered with an error: `{error_code, message}`. */
export class ShopRefusal extends ShopError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
  ) {
    super(`The shop refused (${status}): ${reason}`);
    this.name = "ShopRefusal";
  }
}

export type Shop = { base: string; token: string; holder: LockInfo; dataDir: string; fetchImpl: typeof fetch };

/**
 * The shop server that holds the embedded database in DATA_DIR, if one does (never with DATABASE_URL): the command
 * then goes through its admin API. Another holder (an admin command still running) is not a server: the command
 * opens the database itself, and is told who holds it.
 */
export function shopHoldingData(url?: string, fetchImpl: typeof fetch = fetch): Shop | undefined {
  const c = config();
  if (c.databaseUrl) return undefined;
  const holder = dataDirHolder(c.dataDir);
  if (!holder || holder.role !== "server") return undefined;
  const token = adminToken();
  if (!token) {
    throw new ShopError(
      `The shop server (pid ${holder.pid}) holds the embedded database in ${c.dataDir}: this command goes through its admin API, ` +
        "which needs the admin token. Set ADMIN_TOKEN (outside devnet mode the shop generates none).",
      2,
    );
  }
  return { base: shopUrl(url), token, holder, dataDir: c.dataDir, fetchImpl };
}

/** Calls the shop's admin API; answers the response when it is a success, else throws ShopError / ShopRefusal. */
export async function callShop(shop: Shop, method: "GET" | "POST", path: string, body?: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await shop.fetchImpl(`${shop.base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${shop.token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new ShopError(
      `Cannot reach the shop at ${shop.base}: ${(err as Error).message}. The shop server (pid ${shop.holder.pid}, since ${shop.holder.since}) ` +
        `holds the embedded database in ${shop.dataDir}, so this command goes through its admin API: pass --url if it listens elsewhere.`,
    );
  }
  if (res.ok) return res;
  const text = await res.text().catch(() => "");
  let answer: z.infer<typeof adminErrorWire> | undefined;
  try {
    answer = adminErrorWire.parse(JSON.parse(text));
  } catch {
    answer = undefined;
  }
  throw new ShopRefusal(res.status, answer?.error_code ?? "", answer?.message ?? (res.statusText || text.slice(0, 200)));
}

/** Calls the shop's admin API and reads its JSON answer with `schema`. */
export async function shopJson<S extends z.ZodType>(shop: Shop, method: "GET" | "POST", path: string, schema: S, body?: unknown): Promise<z.output<S>> {
  const res = await callShop(shop, method, path, body);
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success)
    throw new ShopError(`The shop at ${shop.base} answered ${path} with something this command does not understand: is it the same version?`);
  return parsed.data;
}

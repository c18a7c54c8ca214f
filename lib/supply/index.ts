// The upstream supplier: its API v2 client, the catalog sync, the purchases of its orders. What other features import from it.
import { config, type UpstreamConfig } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import type { FulfilmentProvider } from "@/lib/fulfilment";
import { log } from "@/lib/platform/log";
import { UpstreamClient } from "./client";
import { syncUpstreamCatalog, type SyncReport } from "./sync";

export { UpstreamClient, UpstreamRateLimited, UpstreamRefusal, UpstreamUnavailable } from "./client";
export { syncUpstreamCatalog, type SyncReport } from "./sync";
export type { HeldPurchase, UpstreamStatus } from "./status";

/** Pages of the upstream catalog one upkeep pass reads at most (50 products each); the pass goes on at the next one. */
const PAGES_PER_UPKEEP = 20;
/** Pages an operator's sync reads at once (the admin route, `npm run admin -- supply sync`). */
const PAGES_PER_REQUEST = 200;

const held = globalThis as typeof globalThis & { __storefrontUpstream?: { cfg: UpstreamConfig; client: UpstreamClient } };

/** The process's client of the configured upstream (one, so that its pacing sees every request), or undefined. */
export function upstreamClient(c = config().upstream): UpstreamClient | undefined {
  if (!c) return undefined;
  if (held.__storefrontUpstream?.cfg !== c) held.__storefrontUpstream = { cfg: c, client: new UpstreamClient(c) };
  return held.__storefrontUpstream.client;
}

/**
 * The upkeep's share of the catalog sync (at start, on the server's upkeep loop and in every cron round): a pass when
 * the last one is older than UPSTREAM_SYNC_MINUTES, or the rest of one that stopped. Never throws: a failure is logged
 * and the sync resumes later.
 */
export async function syncUpstreamIfDue(db: Db): Promise<SyncReport | undefined> {
  const c = config().upstream;
  const client = upstreamClient(c);
  if (!c || !client) return undefined;
  try {
    return await syncUpstreamCatalog(db, client, c, { maxPages: PAGES_PER_UPKEEP });
  } catch (err) {
    log.error({ err: err instanceof Error ? err.message : String(err) }, "the upstream catalog sync failed");
    return undefined;
  }
}

/** A sync asked for by the operator: now, whatever the time of the last pass (a rate limit still holds it). */
export async function syncUpstreamNow(db: Db): Promise<SyncReport | undefined> {
  const c = config().upstream;
  const client = upstreamClient(c);
  if (!c || !client) return undefined;
  return syncUpstreamCatalog(db, client, c, { force: true, maxPages: PAGES_PER_REQUEST });
}

/**
 * The provider of the upstream supplier's orders, over `db`, for the fulfilment: lib/server passes it to the worker
 * and the round (lib/fulfilment sits below lib/supply, whose client is typed by the merchant API's schemas). The
 * purchases' code (purchase.ts) is loaded at the first upstream order.
 */
export function upstreamProvider(db: Db): FulfilmentProvider {
  return { deliver: async (order) => (await import("./purchase")).configuredUpstreamProvider(db).deliver(order) };
}

/** The configured upstream's balance, held orders and sync (GET /api/health?ready=1), or undefined without one. */
export async function upstreamHealth(db: Db): Promise<import("./status").UpstreamStatus | undefined> {
  const c = config().upstream;
  const client = upstreamClient(c);
  if (!c || !client) return undefined;
  const { upstreamStatus } = await import("./status");
  return upstreamStatus(db, client, new URL(c.url).origin);
}

/** The orders held for the configured upstream's balance, oldest first; none without an upstream. */
export async function upstreamHeldOrders(db: Db): Promise<import("./status").HeldPurchase[]> {
  const c = config().upstream;
  if (!c) return [];
  const { heldPurchases } = await import("./status");
  return heldPurchases(db, c.holdMinutes);
}

/**
 * Whether this process found its database unreachable a moment ago: pages answer 503 meanwhile (proxy.ts) instead of
 * each trying to render and failing. On globalThis: the proxy, the routes and the pool's handlers load this module in
 * bundles of their own. No imports: the proxy's bundle stays small.
 */
const state = globalThis as typeof globalThis & { __storefrontDbOutageUntil?: number };

/** How long an outage that was seen holds the pages back, in seconds (their Retry-After); seen again, it holds longer. */
export const OUTAGE_HOLD_S = 5;

/** Records that the database was just found unreachable (lib/platform/db/unavailable.ts tells). */
export function noteDatabaseOutage(now = Date.now()): void {
  state.__storefrontDbOutageUntil = now + OUTAGE_HOLD_S * 1000;
}

/** Records that the database answers again (a new connection was made): pages render again at once. */
export function noteDatabaseBack(): void {
  state.__storefrontDbOutageUntil = undefined;
}

/** Whether an outage seen within the last OUTAGE_HOLD_S seconds still holds the pages back. */
export function inDatabaseOutage(now = Date.now()): boolean {
  return (state.__storefrontDbOutageUntil ?? 0) > now;
}

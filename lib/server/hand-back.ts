import type { ClaimScope } from "@/lib/platform/db/claim";
import type { Db } from "@/lib/platform/db";
import { releaseAddressRefunds, releaseClaims, releaseDeadClaims } from "@/lib/fulfilment";
import { releaseLeases, releaseWatchers } from "@/lib/payments";
import { releaseDeliveryClaims } from "@/lib/webhooks";
import { log } from "@/lib/platform/log";

/** What a release freed, by kind of claim (ids). */
export type HandedBack = { orders: string[]; settlements: string[]; webhooks: string[]; watchers: string[]; addressRefunds: string[] };

/**
 * Frees the claims of `scope` on every kind of work a server holds (lib/platform/db/claim.ts ClaimScope): orders being
 * delivered or refunded, settlements being settled, webhook messages being sent, networks' address watcher rounds,
 * refunds of payments by address being paid. Used
 * - at a stop (SIGTERM), after the workers finished their round: this server's claims (`all` on the embedded
 *   database, `{ holder }` on PostgreSQL), so that the next start or another server takes them at once;
 * - at start: `all` on the embedded database (a claim found there is a killed process's), `dead` on PostgreSQL;
 * - by the upkeep loop on PostgreSQL: `dead`, once a holder has looked gone for `graceMs`.
 * Taken again, each is safe to redo: a delivery gives the provider's same outcome, a refund sends its stored transfer
 * again, a settlement is decided from the chain once, a webhook is delivered at least once.
 */
export async function handBack(db: Db, scope: ClaimScope, opts: { graceMs?: number; why: string }): Promise<HandedBack> {
  const now = new Date();
  const [orders, settlements, webhooks, watchers, addressRefunds] = await Promise.all([
    scope === "dead" ? releaseDeadClaims(db, { now, graceMs: opts.graceMs }) : releaseClaims(db, now, scope),
    releaseLeases(db, scope, { now, graceMs: opts.graceMs }),
    releaseDeliveryClaims(db, scope, { now, graceMs: opts.graceMs }),
    releaseWatchers(db, scope, { now, graceMs: opts.graceMs }),
    releaseAddressRefunds(db, scope, { now, graceMs: opts.graceMs }),
  ]);
  const freed = { orders, settlements, webhooks, watchers, addressRefunds };
  const count = orders.length + settlements.length + webhooks.length + watchers.length + addressRefunds.length;
  if (count > 0) log.warn({ ...sample(freed), count }, opts.why);
  return freed;
}

const sample = (f: HandedBack) => ({
  orders: f.orders.slice(0, 20),
  settlements: f.settlements.slice(0, 20),
  webhooks: f.webhooks.slice(0, 20),
  watchers: f.watchers,
  addressRefunds: f.addressRefunds.slice(0, 20),
});

import type { Db } from "@/lib/platform/db";
import { claimDueOrders, DEFAULT_LOCK_MS } from "./claim";
import { fulfilOrder, type FulfilOutcome } from "./fulfil-order";
import { providerFor, type UpstreamProvider } from "./providers/provider-for";
import type { FulfilmentProvider } from "./providers/types";
import { announceFinishedInvoices } from "./orders-ended";

export { claimDueOrders, DEFAULT_LOCK_MS, releaseClaims, releaseDeadClaims, type ClaimedOrder } from "./claim";
export { fulfilOrder, PROVIDER_TIMEOUT_MS, type FulfilOutcome, type FulfilOptions } from "./fulfil-order";

export type DrainOptions = {
  /** One provider for every order (tests); otherwise `providerFor(order)`. */
  provider?: FulfilmentProvider;
  /** The upstream supplier's provider, for its orders (lib/supply's `upstreamProvider`, which lib/server passes). */
  upstream?: UpstreamProvider;
  /** Orders claimed per round; a round's orders are delivered in parallel. */
  limit?: number;
  /** A fixed clock for the whole drain (tests move time with it); the real time at each round otherwise. */
  now?: Date;
  lockMs?: number;
  /** Who the claims name as their holder; by default this process's presence (lib/platform/db/presence.ts), if any. */
  holder?: number | null;
  maxAttempts?: number;
  /** Aborted: the drain ends after the batch in flight (a cron round's time is up, or the server stops). */
  signal?: AbortSignal;
};

export type DrainResult = {
  claimed: number;
  /** Invoices whose orders were all final but which were not rolled up yet (a worker died in between). */
  recoveredInvoices: number;
} & Record<FulfilOutcome, number>;

/**
 * Claims and fulfils due orders, round after round, until none is due. An order that fails transiently is due again
 * only after its backoff, so a drain always ends. Then finishes invoices a crashed worker left without a roll-up.
 * An order whose outcome could not be written (database error) stays claimed until its lock lapses and is retried
 * then; the drain finishes the others and throws the first such error at the end.
 */
export async function drainDue(db: Db, opts: DrainOptions = {}): Promise<DrainResult> {
  const result: DrainResult = { claimed: 0, delivered: 0, failed: 0, retry: 0, lost: 0, recoveredInvoices: 0 };
  const errors: unknown[] = [];
  while (!opts.signal?.aborted) {
    const batch = await claimDueOrders(db, {
      limit: opts.limit ?? 10,
      lockMs: opts.lockMs ?? DEFAULT_LOCK_MS,
      now: opts.now ?? new Date(),
      holder: opts.holder,
    });
    if (batch.length === 0) break;
    result.claimed += batch.length;
    const outcomes = await Promise.allSettled(
      batch.map(async (order) =>
        fulfilOrder(db, order, opts.provider ?? providerFor(order, db, opts.upstream), { now: opts.now, maxAttempts: opts.maxAttempts }),
      ),
    );
    for (const o of outcomes) {
      if (o.status === "fulfilled") result[o.value]++;
      else errors.push(o.reason);
    }
  }
  result.recoveredInvoices = await announceFinishedInvoices(db, { now: opts.now });
  if (errors.length > 0) throw new Error(`${errors.length} order(s) could not be recorded; they are retried when their claim lapses`, { cause: errors[0] });
  return result;
}

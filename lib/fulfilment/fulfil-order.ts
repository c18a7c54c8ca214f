import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { orders } from "@/lib/platform/db/schema";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";
import type { ClaimedOrder } from "./claim";
import type { Delivery, FulfilmentProvider } from "./providers/types";
import { emit } from "@/lib/platform/events";
import { announceOrdersEnded } from "./orders-ended";
import { logFor } from "@/lib/platform/log";
import { errorText } from "@/lib/platform/errors";

/** How long a provider may take before the attempt counts as a transient failure; well inside the claim's lock. */
export const PROVIDER_TIMEOUT_MS = 30_000;

/** What became of a claimed order: `retry` = back to due later; `lost` = the claim had lapsed and was taken over. */
export type FulfilOutcome = "delivered" | "failed" | "retry" | "lost";

export type FulfilOptions = {
  /** The time written as the outcome's; the real time after the provider answers when not given. */
  now?: Date;
  maxAttempts?: number;
  timeoutMs?: number;
};

/**
 * Runs the provider for a claimed order and records the outcome in one conditional update (only while this claim
 * still holds the order), then rolls up its invoice. A thrown error or a timeout is transient: the order becomes due
 * again after an exponential backoff, until `maxAttempts`, after which it fails with RETRIES_EXHAUSTED.
 */
export async function fulfilOrder(db: Db, order: ClaimedOrder, provider: FulfilmentProvider, opts: FulfilOptions = {}): Promise<FulfilOutcome> {
  let result: Delivery | { error: string };
  try {
    result = await withTimeout(provider.deliver(order), opts.timeoutMs ?? PROVIDER_TIMEOUT_MS);
  } catch (err) {
    result = { error: errorText(err) };
  }
  const now = opts.now ?? new Date();
  const maxAttempts = opts.maxAttempts ?? MAX_ATTEMPTS;

  let outcome: Exclude<FulfilOutcome, "lost">;
  let set: PgUpdateSetSource<typeof orders>;
  let record: ((tx: Db) => Promise<void>) | undefined;
  if ("error" in result) {
    if (order.attempts >= maxAttempts) {
      outcome = "failed";
      set = { status: "failed", errorCode: "RETRIES_EXHAUSTED", lastError: clip(result.error) };
    } else {
      // Still `processing`: the order has been started and will be taken again when due.
      outcome = "retry";
      set = { runAt: retryAt(order, new Date(now.getTime() + retryDelayMs(order.attempts))), lastError: clip(result.error) };
    }
  } else if ("pending" in result) {
    outcome = "retry";
    set = { runAt: retryAt(order, new Date(now.getTime() + Math.max(0, result.retryInMs))), lastError: clip(result.message) };
  } else if (result.failed) {
    outcome = "failed";
    set = { status: "failed", errorCode: result.errorCode, lastError: clip(result.message) };
  } else {
    outcome = "delivered";
    set = { status: "delivered", redemption: result.redemption, deliveredAt: now, errorCode: null, lastError: null };
    record = result.record;
  }

  // A failure is announced (order.failed) in the transaction that records it: a balance-paid merchant order is
  // refunded to the balance there (lib/wiring.ts), so the invoice never completes with a failed order whose money is
  // still out. What a delivery makes in the shop (its own gift card) is written there too, by the claim that wins.
  const written = await db.transaction(async (tx) => {
    const rows = await tx
      .update(orders)
      .set({ ...set, lockedUntil: null, lockedBy: null, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, "processing"), eq(orders.attempts, order.attempts)))
      .returning({ id: orders.id, runAt: orders.runAt });
    if (rows.length > 0 && outcome === "failed") await emit(tx, "order.failed", { orderId: order.id, now });
    if (rows.length > 0 && record) await record(tx as unknown as Db);
    return rows;
  });
  const about = logFor({ order_id: order.id, invoice_id: order.invoiceId, attempt: order.attempts });
  if (written.length === 0) {
    about.warn("another worker took this order over (its claim had lapsed): its outcome is that worker's");
    return "lost";
  }
  if (outcome === "delivered") about.info("order delivered");
  else if (outcome === "failed") about.warn({ error_code: set.errorCode, reason: set.lastError }, "order failed");
  else about.warn({ reason: set.lastError, retry_at: written[0]?.runAt?.toISOString() }, "order delivery failed; retrying");
  if (outcome !== "retry") await announceOrdersEnded(db, order.invoiceId, now);
  return outcome;
}

/**
 * When a claimed order that is not finished is due again: at `later`, unless its due time was set anew while this
 * attempt ran (an upstream's webhook said its invoice is final: lib/supply/webhook.ts makes it due now). That time is
 * kept, so the news the attempt may have missed is read at once, not after the attempt's wait (minutes, when the
 * upstream is polled slowly). Told by the value, not by a clock: servers' clocks may differ. Due times are written
 * from JavaScript dates (milliseconds), as the claim read it.
 */
function retryAt(order: ClaimedOrder, later: Date): SQL {
  return sql`CASE WHEN date_trunc('milliseconds', ${orders.runAt}) IS DISTINCT FROM ${order.dueAt.toISOString()}::timestamptz THEN ${orders.runAt} ELSE ${later.toISOString()}::timestamptz END`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the provider did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Provider messages are stored for the operator; a runaway one must not bloat the row. */
const clip = (s: string) => (s.length > 500 ? `${s.slice(0, 497)}...` : s);

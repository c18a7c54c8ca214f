import { asc, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { upstreamPurchases } from "@/lib/platform/db/schema";
import type { UpstreamClient } from "./client";
import { readState } from "./sync";
import { errorText } from "@/lib/platform/errors";

/** The upstream supplier as the operator watches it (GET /api/health?ready=1). */
export type UpstreamStatus = {
  /** Its origin (never its credentials). */
  origin: string;
  /** What the upstream holds for this shop, in US cents; null when it did not say (`balance_error`). */
  balance_cents: number | null;
  balance_error?: string;
  /** Orders waiting for the operator to top up the upstream balance (`balance_too_low`), refunded after UPSTREAM_HOLD_MINUTES. */
  held_orders: number;
  /** Orders asked of the upstream whose outcome is not known yet. */
  buying_orders: number;
  sync: { last_complete: string | null; in_progress: boolean; resume_at: string | null; last_error: string | null };
};

/** The upstream's balance (asked with a time limit), the orders held or under way, and where the catalog sync stands. */
export async function upstreamStatus(db: Db, client: UpstreamClient, origin: string, timeoutMs = 3_000): Promise<UpstreamStatus> {
  const [balance, held, buying, state] = await Promise.all([
    balanceOf(client, timeoutMs),
    countWhere(db, "held"),
    countWhere(db, "buying"),
    readState(db, new Date()),
  ]);
  return {
    origin,
    balance_cents: "cents" in balance ? balance.cents : null,
    ...("error" in balance ? { balance_error: balance.error } : {}),
    held_orders: held,
    buying_orders: buying,
    sync: { last_complete: state.lastCompleteAt, in_progress: state.pass !== null, resume_at: state.resumeAt, last_error: state.lastError },
  };
}

/**
 * The balance is asked at most once a minute per client, whatever the number of health checks: the upstream allows
 * 60 balance requests per 10 minutes, and a load balancer's probes must not spend them.
 */
const BALANCE_TTL_MS = 60_000;
const balances = new WeakMap<UpstreamClient, { at: number; answer: Promise<{ cents: number } | { error: string }> }>();

function balanceOf(client: UpstreamClient, timeoutMs: number): Promise<{ cents: number } | { error: string }> {
  const held = balances.get(client);
  if (held && Date.now() - held.at < BALANCE_TTL_MS) return held.answer;
  const answer = Promise.race([
    client.balance().then((b) => ({ cents: b.balance })),
    new Promise<{ error: string }>((resolve) => setTimeout(() => resolve({ error: `no answer in ${timeoutMs / 1000} s` }), timeoutMs).unref()),
  ]).catch((err: unknown) => ({ error: errorText(err) }));
  balances.set(client, { at: Date.now(), answer });
  return answer;
}

async function countWhere(db: Db, status: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(upstreamPurchases).where(eq(upstreamPurchases.status, status));
  return Number(row?.n ?? 0);
}

/** An order waiting for the upstream balance to be topped up (`balance_too_low`): refunded at `refundAt` otherwise. */
export type HeldPurchase = { orderId: string; heldSince: Date; refundAt: Date; lastError: string | null };

/** The orders held for the upstream balance, oldest first (at most `limit`). */
export async function heldPurchases(db: Db, holdMinutes: number, limit = 50): Promise<HeldPurchase[]> {
  const rows = await db
    .select({
      orderId: upstreamPurchases.orderId,
      heldSince: upstreamPurchases.heldSince,
      updatedAt: upstreamPurchases.updatedAt,
      lastError: upstreamPurchases.lastError,
    })
    .from(upstreamPurchases)
    .where(eq(upstreamPurchases.status, "held"))
    .orderBy(asc(upstreamPurchases.heldSince))
    .limit(limit);
  return rows.map((r) => {
    const heldSince = r.heldSince ?? r.updatedAt;
    return { orderId: r.orderId, heldSince, refundAt: new Date(heldSince.getTime() + holdMinutes * 60_000), lastError: r.lastError };
  });
}

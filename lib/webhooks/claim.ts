import { and, eq, gt, inArray, isNotNull, lte, notExists, sql } from "drizzle-orm";
import { claimableIds, databaseJustStarted, goneLongEnough, heldBy, RESTART_GRACE_MS, type ClaimScope } from "@/lib/platform/db/claim";
import { claimHolder } from "@/lib/platform/db/presence";
import type { Db } from "@/lib/platform/db";
import { merchants, webhookDeliveries, webhookEndpoints } from "@/lib/platform/db/schema";
import { signingSecrets } from "./secrets";

/**
 * A message this worker holds until `lockedUntil`, which also identifies the claim: a later claim of the same message
 * sets another time, so a worker whose claim lapsed cannot overwrite its successor's outcome. `attempt` is the number
 * of the attempt about to be made (counted at the claim, so a worker that dies mid-send still used one).
 */
export type ClaimedDelivery = {
  id: string;
  merchantId: string;
  url: string;
  payload: unknown;
  /** This attempt's number in the log (manual redeliveries included). */
  attempt: number;
  /** This attempt's place in the automatic retry schedule (manual redeliveries left out). */
  scheduled: number;
  lockedUntil: Date;
  /** The merchant's secrets that sign at the claim's time (two during a rotation). */
  secrets: string[];
};

/** How long a claim holds a message: far longer than an attempt may take (WEBHOOK_TIMEOUT_MS). */
export const DEFAULT_LOCK_MS = 60_000;

/**
 * Claims up to `limit` due messages: pending, due (`next_attempt_at <= now`; null while held), not held by a live
 * claim, and not addressed to a disabled endpoint (`claimableIds`: concurrent workers take disjoint sets; a dead
 * worker's claim lapses and the message is taken again).
 */
export async function claimDueDeliveries(db: Db, opts: { limit: number; lockMs?: number; now?: Date }): Promise<ClaimedDelivery[]> {
  const now = opts.now ?? new Date();
  const lockedUntil = new Date(now.getTime() + (opts.lockMs ?? DEFAULT_LOCK_MS));
  return db.transaction(async (tx) => {
    const ids = await claimableIds(
      tx,
      { table: webhookDeliveries, id: webhookDeliveries.id, lockedUntil: webhookDeliveries.lockedUntil, order: webhookDeliveries.nextAttemptAt },
      {
        due: and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, now),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(webhookEndpoints)
              .where(
                and(
                  eq(webhookEndpoints.merchantId, webhookDeliveries.merchantId),
                  eq(webhookEndpoints.url, webhookDeliveries.url),
                  isNotNull(webhookEndpoints.disabledAt),
                ),
              ),
          ),
        ),
        limit: opts.limit,
        now,
      },
    );
    if (ids.length === 0) return [];

    const claimed = await tx
      .update(webhookDeliveries)
      .set({ lockedUntil, lockedBy: claimHolder(), attempts: sql`${webhookDeliveries.attempts} + 1` })
      .where(inArray(webhookDeliveries.id, ids))
      .returning({
        id: webhookDeliveries.id,
        merchantId: webhookDeliveries.merchantId,
        url: webhookDeliveries.url,
        payload: webhookDeliveries.payload,
        attempt: webhookDeliveries.attempts,
        scheduled: sql<number>`${webhookDeliveries.attempts} - ${webhookDeliveries.manualAttempts}`.mapWith(Number),
      });

    const merchantIds = [...new Set(claimed.map((c) => c.merchantId))];
    const secrets = await tx
      .select({
        id: merchants.id,
        webhookSecret: merchants.webhookSecret,
        webhookSecretPrevious: merchants.webhookSecretPrevious,
        webhookSecretPreviousUntil: merchants.webhookSecretPreviousUntil,
      })
      .from(merchants)
      .where(inArray(merchants.id, merchantIds));
    const byMerchant = new Map(secrets.map((m) => [m.id, signingSecrets(m, now)]));
    // A delivery's merchant cannot be missing (the foreign key cascades), so every claim has its secrets.
    return claimed.map((c) => ({ ...c, lockedUntil, secrets: byMerchant.get(c.merchantId) ?? [] }));
  });
}

/**
 * Hands back the claims of `scope` (lib/platform/db/claim.ts ClaimScope) on messages not yet delivered, and answers their ids:
 * they are sent at once by whichever worker runs next rather than when the claim lapses (DEFAULT_LOCK_MS). A worker
 * still sending one can no longer record its attempt (its claim is gone), so the message may go out twice: webhooks
 * are delivered at least once, and carry their id for the merchant to tell. `dead` as in releaseLeases.
 */
export async function releaseDeliveryClaims(
  db: Db,
  scope: ClaimScope,
  opts: { now?: Date; graceMs?: number; restartGraceMs?: number } = {},
): Promise<string[]> {
  const now = opts.now ?? new Date();
  const held = and(eq(webhookDeliveries.status, "pending"), gt(webhookDeliveries.lockedUntil, now), heldBy(webhookDeliveries.lockedBy, scope));
  let ids: string[] | undefined;
  if (scope === "dead") {
    if (await databaseJustStarted(db, opts.restartGraceMs ?? RESTART_GRACE_MS)) return [];
    const found = await db.select({ id: webhookDeliveries.id, holder: webhookDeliveries.lockedBy }).from(webhookDeliveries).where(held);
    ids = goneLongEnough(db, "webhook_deliveries", found, now, opts.graceMs ?? 0);
    if (ids.length === 0) return [];
  }
  const freed = await db
    .update(webhookDeliveries)
    .set({ lockedUntil: null, lockedBy: null })
    .where(ids ? and(held, inArray(webhookDeliveries.id, ids)) : held)
    .returning({ id: webhookDeliveries.id });
  return freed.map((d) => d.id);
}

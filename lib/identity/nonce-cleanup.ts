import { lt } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { siwxNonces } from "@/lib/db/schema";
import { log } from "@/lib/log";

// Kept a day past expiry so that a late replay still reads "expired"/"replayed" rather than "unknown nonce".
const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Deletes sign-in nonces that expired more than a day ago. */
export async function deleteStaleNonces(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(siwxNonces).where(lt(siwxNonces.expiresAt, new Date(now.getTime() - KEEP_AFTER_EXPIRY_MS)));
}

/**
 * Runs the cleanup on about one call in `1 / chance`: challenge creation calls this, so the table stays
 * small without a scheduler. A failing cleanup is logged and never fails the caller's sign-in.
 */
export async function maybeDeleteStaleNonces(db: Db, chance = 1 / 50, random: () => number = Math.random): Promise<void> {
  if (random() >= chance) return;
  try {
    await deleteStaleNonces(db);
  } catch (err) {
    log.error({ err }, "SIWX nonce cleanup failed");
  }
}

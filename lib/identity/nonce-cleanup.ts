import { lt } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { siwxNonces } from "@/lib/platform/db/schema";
import { SIWX_CLOCK_SKEW_MS } from "./siwx-limits";

// A nonce is needed until its message can no longer pass the time checks (its expiry plus the clock skew allowed):
// after that a replay is refused as "expired" by the message's own times, so the nonce is no longer kept.
const KEEP_AFTER_EXPIRY_MS = SIWX_CLOCK_SKEW_MS;

/** Deletes sign-in nonces, spent or not, whose messages can no longer pass (past expiry and the clock skew). */
export async function deleteStaleNonces(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(siwxNonces).where(lt(siwxNonces.expiresAt, new Date(now.getTime() - KEEP_AFTER_EXPIRY_MS)));
}

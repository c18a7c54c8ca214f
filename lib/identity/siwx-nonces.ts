import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { siwxNonces } from "@/lib/platform/db/schema";

/** Why a nonce cannot be used. */
export type NonceRefusal = { code: "unknown_nonce" | "expired" | "replayed"; message: string };

// What any nonce of ours looks like (and what SIWE allows): anything else is refused without a query.
const PLAUSIBLE_NONCE = /^[A-Za-z0-9]{8,128}$/;

export async function storeNonce(db: Db, nonce: string, issuedAt: Date, expiresAt: Date): Promise<void> {
  await db.insert(siwxNonces).values({ nonce, issuedAt, expiresAt });
}

/**
 * Why this nonce cannot be used now, or null when it still can. Read-only: it lets a request with a dead
 * nonce be refused before any signature work (an EIP-1271 check is an RPC call), but only `consumeNonce`
 * decides, atomically.
 */
export async function nonceRefusal(db: Db, nonce: string, now: Date): Promise<NonceRefusal | null> {
  if (!PLAUSIBLE_NONCE.test(nonce)) return { code: "unknown_nonce", message: "This sign-in nonce was not issued by this server" };
  const [row] = await db.select({ usedAt: siwxNonces.usedAt, expiresAt: siwxNonces.expiresAt }).from(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  if (!row) return { code: "unknown_nonce", message: "This sign-in nonce was not issued by this server" };
  if (row.usedAt) return { code: "replayed", message: "This sign-in message was already used: ask for a new challenge" };
  if (row.expiresAt.getTime() <= now.getTime()) return { code: "expired", message: "This sign-in challenge expired: ask for a new one" };
  return null;
}

/**
 * Marks the nonce used by `usedBy` in one conditional update, so that of two requests carrying the same
 * signed message exactly one wins. Returns null on success, else why it was refused.
 */
export async function consumeNonce(db: Db, nonce: string, usedBy: string, now: Date): Promise<NonceRefusal | null> {
  const updated = await db
    .update(siwxNonces)
    .set({ usedAt: now, usedBy })
    .where(and(eq(siwxNonces.nonce, nonce), isNull(siwxNonces.usedAt), gt(siwxNonces.expiresAt, now)))
    .returning({ nonce: siwxNonces.nonce });
  if (updated.length > 0) return null;
  // Lost: find out why, for the client's error. A row that looks usable again can only mean a concurrent winner.
  return (await nonceRefusal(db, nonce, now)) ?? { code: "replayed", message: "This sign-in message was already used: ask for a new challenge" };
}

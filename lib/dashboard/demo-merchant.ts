import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/platform/db";
import { createMerchant, verifyCredential, type NewMerchant } from "@/lib/merchants";
import type { RateLimiter } from "@/lib/platform/ratelimit";

/** A demo merchant's opening balance, in cents: as `npm run admin -- merchant create --credit 100` gives. */
export const DEMO_MERCHANT_CREDIT_CENTS = 10_000n;

/** A demo merchant just made: its secrets (shown this once), its name, and the business key the browser signs in with. */
export type DemoMerchant = NewMerchant & { name: string; balance_cents: number; credentialId: string };

export type DemoMerchantOutcome = { ok: true; merchant: DemoMerchant } | { ok: false; retryAfterSec: number };

/**
 * A merchant account for trying the dashboard on the devnet (the caller refuses every other mode): made as the admin
 * API's `POST /api/admin/merchants` makes one (`createMerchant`: a business key, a personal token, a webhook secret, an
 * opening credit), counted per client IP (`DEMO_MERCHANT_LIMIT`). Answers the business key's row, to sign in with.
 */
export async function createDemoMerchant(db: Db, ctx: { limiter: RateLimiter; ip?: string }): Promise<DemoMerchantOutcome> {
  const decision = await ctx.limiter.consumeDemoMerchant(ctx.ip);
  if (!decision.allowed) return { ok: false, retryAfterSec: decision.retryAfterSec ?? 60 };
  const name = `Demo merchant ${randomBytes(3).toString("hex")}`;
  const created = await createMerchant(db, { name, creditCents: DEMO_MERCHANT_CREDIT_CENTS });
  // The key is checked as the sign-in form checks it: the session is for a credential that works.
  const { credential } = await verifyCredential(db, { scheme: "basic", publicId: created.api_id, secret: created.api_secret });
  return { ok: true, merchant: { ...created, name, balance_cents: Number(DEMO_MERCHANT_CREDIT_CENTS), credentialId: credential.id } };
}

import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { merchantCredentials, merchants } from "@/lib/platform/db/schema";
import type { Credential, Merchant } from "@/lib/merchants";
import { verifyDashboardSession, type DashboardSession } from "./session-token";

/** Who is signed in to the dashboard: the merchant, the credential it signed in with (no secret hash), the session. */
export type SignedIn = { merchant: Merchant; credential: Omit<Credential, "secretHash">; session: DashboardSession };

/**
 * The merchant behind a dashboard session cookie, or null: a missing, bad or expired token, a credential that was
 * revoked or has expired since the sign-in, a suspended merchant. Checked on every request (one indexed read), so
 * that revoking the key a session signed in with ends that session at once.
 */
export async function resolveDashboardSession(
  db: Db,
  token: string | undefined,
  opts: { secret?: string | Uint8Array; now?: Date } = {},
): Promise<SignedIn | null> {
  const session = await verifyDashboardSession(token, opts);
  if (!session) return null;
  const now = opts.now ?? new Date();
  const [row] = await db
    .select({ credential: merchantCredentials, merchant: merchants })
    .from(merchantCredentials)
    .innerJoin(merchants, eq(merchants.id, merchantCredentials.merchantId))
    .where(and(eq(merchantCredentials.id, session.credentialId), eq(merchantCredentials.merchantId, session.merchantId)));
  if (!row) return null;
  const { secretHash: _hash, ...credential } = row.credential;
  void _hash;
  if (credential.revokedAt || (credential.expiresAt && credential.expiresAt <= now)) return null;
  if (row.merchant.status === "suspended") return null;
  return { merchant: row.merchant, credential, session };
}

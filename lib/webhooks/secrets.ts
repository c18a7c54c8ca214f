import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { merchants } from "@/lib/platform/db/schema";
import { newWebhookSecret } from "@/lib/merchants";
import { DomainError } from "@/lib/platform/errors";

/** How long the previous secret keeps signing after a rotation: a day to deploy the new one to the receiver. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export type WebhookSecrets = {
  /** Signs every message. */
  secret: string;
  /** The secret before the last rotation, signing too until `until`; null once that has passed. */
  previous: { secret: string; until: Date } | null;
};

type SecretColumns = { webhookSecret: string; webhookSecretPrevious: string | null; webhookSecretPreviousUntil: Date | null };

/** The secrets that sign a message sent at `now`: the current one, and the previous one during its overlap. */
export function signingSecrets(m: SecretColumns, now: Date): string[] {
  const previous = activePrevious(m, now);
  return previous ? [m.webhookSecret, previous.secret] : [m.webhookSecret];
}

function activePrevious(m: SecretColumns, now: Date): WebhookSecrets["previous"] {
  return m.webhookSecretPrevious && m.webhookSecretPreviousUntil && m.webhookSecretPreviousUntil > now
    ? { secret: m.webhookSecretPrevious, until: m.webhookSecretPreviousUntil }
    : null;
}

/** The secrets that sign the merchant's messages sent at `now`. */
export async function signingSecretsOf(db: Db, merchantId: string, now: Date): Promise<string[]> {
  const s = await getWebhookSecrets(db, merchantId, now);
  return s.previous ? [s.secret, s.previous.secret] : [s.secret];
}

/** The merchant's signing secret, for the dashboard to reveal (and the previous one while it still signs). */
export async function getWebhookSecrets(db: Db, merchantId: string, now = new Date()): Promise<WebhookSecrets> {
  const [m] = await db
    .select({
      webhookSecret: merchants.webhookSecret,
      webhookSecretPrevious: merchants.webhookSecretPrevious,
      webhookSecretPreviousUntil: merchants.webhookSecretPreviousUntil,
    })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  if (!m) throw new DomainError("not_found", `No merchant ${merchantId}`);
  return { secret: m.webhookSecret, previous: activePrevious(m, now) };
}

/**
 * Replaces the signing secret with a new one. The old one keeps signing beside it (both signatures in
 * `webhook-signature`) for `overlapMs`, a day by default, so the merchant can update the receiver without missing a
 * message. Rotating again within that day drops the older secret at once: only the last two ever sign.
 */
export async function rotateWebhookSecret(db: Db, merchantId: string, opts: { now?: Date; overlapMs?: number } = {}): Promise<WebhookSecrets> {
  const now = opts.now ?? new Date();
  const until = new Date(now.getTime() + (opts.overlapMs ?? ROTATION_OVERLAP_MS));
  const [m] = await db
    .update(merchants)
    .set({ webhookSecretPrevious: sql`${merchants.webhookSecret}`, webhookSecretPreviousUntil: until, webhookSecret: newWebhookSecret() })
    .where(eq(merchants.id, merchantId))
    .returning({
      webhookSecret: merchants.webhookSecret,
      webhookSecretPrevious: merchants.webhookSecretPrevious,
      webhookSecretPreviousUntil: merchants.webhookSecretPreviousUntil,
    });
  if (!m) throw new DomainError("not_found", `No merchant ${merchantId}`);
  return { secret: m.webhookSecret, previous: activePrevious(m, now) };
}

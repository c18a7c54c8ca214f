import { and, count, eq, gt, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { merchantCredentials } from "@/lib/platform/db/schema";
import { issueCredential, listCredentials, revokeCredential, type Credential, type IssuedCredential } from "@/lib/merchants";

/** A merchant's active credentials at most: enough for every integration, and a bound on what one account can store. */
export const MAX_ACTIVE_KEYS = 50;

export type KeyStatus = "active" | "revoked" | "expired";

/** A credential as the dashboard lists it: no secret, no hash. */
export type KeyRow = Pick<Credential, "id" | "name" | "kind" | "publicId" | "createdAt" | "lastUsedAt" | "expiresAt" | "revokedAt"> & { status: KeyStatus };

export function keyStatus(c: Pick<Credential, "revokedAt" | "expiresAt">, now = new Date()): KeyStatus {
  if (c.revokedAt) return "revoked";
  if (c.expiresAt && c.expiresAt <= now) return "expired";
  return "active";
}

/** The merchant's credentials, newest first, revoked and expired ones included (they show when they were last used). */
export async function listKeys(db: Db, merchantId: string, now = new Date()): Promise<KeyRow[]> {
  const rows = await listCredentials(db, merchantId);
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    kind: c.kind,
    publicId: c.publicId,
    createdAt: c.createdAt,
    lastUsedAt: c.lastUsedAt,
    expiresAt: c.expiresAt,
    revokedAt: c.revokedAt,
    status: keyStatus(c, now),
  }));
}

export const createKeyForm = z.object({
  name: z.string().trim().min(1, "Give the key a name, e.g. where it is used.").max(60, "Keep the name under 60 characters."),
  kind: z.enum(["business", "personal"], { error: "Choose a business key or a personal token." }),
});

export type CreateKeyOutcome = { ok: true; issued: IssuedCredential } | { ok: false; error: string; field?: "name" | "kind" };

/** Issues a credential from the create form; its secret is in the answer, once, and nowhere else. */
export async function createKey(db: Db, merchantId: string, form: unknown, now = new Date()): Promise<CreateKeyOutcome> {
  const parsed = createKeyForm.safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: issue?.message ?? "Check the form.", field: issue?.path[0] === "kind" ? "kind" : "name" };
  }
  const [active] = await db
    .select({ n: count() })
    .from(merchantCredentials)
    .where(
      and(
        eq(merchantCredentials.merchantId, merchantId),
        isNull(merchantCredentials.revokedAt),
        or(isNull(merchantCredentials.expiresAt), gt(merchantCredentials.expiresAt, now)),
      ),
    );
  if ((active?.n ?? 0) >= MAX_ACTIVE_KEYS) {
    return { ok: false, error: `You have ${MAX_ACTIVE_KEYS} active keys, the most an account can have: revoke one you no longer use first.` };
  }
  return { ok: true, issued: await issueCredential(db, merchantId, parsed.data.kind, parsed.data.name) };
}

export const revokeKeyForm = z.object({ id: z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, "No such key.") });

export type RevokeKeyOutcome = { ok: true; id: string; name: string; publicId: string } | { ok: false; error: string };

/** Revokes one of the merchant's own credentials; from then on the API answers 401 to it. */
export async function revokeKey(db: Db, merchantId: string, form: unknown, now = new Date()): Promise<RevokeKeyOutcome> {
  const parsed = revokeKeyForm.safeParse(form);
  if (!parsed.success) return { ok: false, error: "No such key." };
  const { id } = parsed.data;
  if (!(await revokeCredential(db, merchantId, id, now))) return { ok: false, error: "That key is not one of yours, or it was already revoked." };
  const [row] = await db
    .select({ name: merchantCredentials.name, publicId: merchantCredentials.publicId })
    .from(merchantCredentials)
    .where(and(eq(merchantCredentials.id, id), eq(merchantCredentials.merchantId, merchantId)));
  return { ok: true, id, name: row?.name ?? "", publicId: row?.publicId ?? "" };
}

import { and, desc, eq, sql } from "drizzle-orm";
import { newId } from "@/lib/platform/ids";
import type { Db } from "@/lib/platform/db";
import { ledgerEntries, merchantCredentials, merchants } from "@/lib/platform/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { hashSecret, newWebhookSecret, randomToken, secretMatches } from "./secrets";

export type Merchant = typeof merchants.$inferSelect;
export type Credential = typeof merchantCredentials.$inferSelect;

/** What a new merchant receives once: its credentials in clear. Only hashes stay on the server. */
export type NewMerchant = { merchant_id: string; api_id: string; api_secret: string; api_token: string; webhook_secret: string };

export type IssuedCredential = { id: string; kind: Credential["kind"]; name: string; api_id?: string; api_secret?: string; api_token?: string };

const newMerchantId = () => newId("mer");
const newCredentialId = () => newId("key");

/**
 * Issues a credential. Business: `api_id` (`ak_…`, public) and `api_secret` (`sk_…`) for HTTP Basic. Personal: one
 * token `pt_<public id>.<secret>` for HTTP Bearer. The secret part is 32 random bytes; only its hash is stored.
 */
export async function issueCredential(db: Db, merchantId: string, kind: Credential["kind"], name: string, expiresAt?: Date): Promise<IssuedCredential> {
  const id = newCredentialId();
  const secret = randomToken(kind === "business" ? "sk_" : "", 32);
  const publicId = randomToken(kind === "business" ? "ak_" : "pt_", 12);
  await db.insert(merchantCredentials).values({ id, merchantId, kind, name, publicId, secretHash: hashSecret(secret), expiresAt });
  return kind === "business" ? { id, kind, name, api_id: publicId, api_secret: secret } : { id, kind, name, api_token: `${publicId}.${secret}` };
}

/** A merchant with a business key pair, a personal token and a webhook secret; `creditCents` starts its balance. */
export async function createMerchant(db: Db, input: { name: string; creditCents?: bigint }): Promise<NewMerchant> {
  return db.transaction(async (tx) => {
    const id = newMerchantId();
    const webhookSecret = newWebhookSecret();
    await tx.insert(merchants).values({ id, name: input.name, webhookSecret });
    const business = await issueCredential(tx, id, "business", "Default business key");
    const personal = await issueCredential(tx, id, "personal", "Default personal token");
    if (input.creditCents && input.creditCents > 0n) {
      await tx.update(merchants).set({ balanceCents: input.creditCents }).where(eq(merchants.id, id));
      await tx
        .insert(ledgerEntries)
        .values({ merchantId: id, kind: "credit", amountCents: input.creditCents, balanceAfterCents: input.creditCents, note: "Opening credit" });
    }
    return { merchant_id: id, api_id: business.api_id!, api_secret: business.api_secret!, api_token: personal.api_token!, webhook_secret: webhookSecret };
  });
}

export async function getMerchant(db: Db, id: string): Promise<Merchant | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, id));
  return row;
}

export async function listCredentials(db: Db, merchantId: string): Promise<Omit<Credential, "secretHash">[]> {
  const rows = await db.select().from(merchantCredentials).where(eq(merchantCredentials.merchantId, merchantId)).orderBy(desc(merchantCredentials.createdAt));
  return rows.map(({ secretHash: _hash, ...rest }) => (void _hash, rest));
}

/** Revokes one of the merchant's credentials; true when it was active. */
export async function revokeCredential(db: Db, merchantId: string, credentialId: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .update(merchantCredentials)
    .set({ revokedAt: now })
    .where(and(eq(merchantCredentials.id, credentialId), eq(merchantCredentials.merchantId, merchantId), sql`${merchantCredentials.revokedAt} IS NULL`))
    .returning({ id: merchantCredentials.id });
  forgetCredentials(db);
  return rows.length > 0;
}

export async function setMerchantAccess(db: Db, merchantId: string, change: { status?: Merchant["status"]; apiAccess?: boolean }): Promise<boolean> {
  const rows = await db.update(merchants).set(change).where(eq(merchants.id, merchantId)).returning({ id: merchants.id });
  forgetCredentials(db);
  return rows.length > 0;
}

/**
 * Why a request is not let in: `unauthorized` (who are you?) or `forbidden` (we know you, but no), as DomainErrors.
 * The message never says which part of a credential was wrong.
 */
const unauthorized = (message: string) => new DomainError("unauthorized", message);
const WRONG = "Invalid API credentials.";

export type Presented = { scheme: "basic"; publicId: string; secret: string } | { scheme: "bearer"; publicId: string; secret: string };

/** Reads `Authorization: Basic base64(api_id:api_secret)` or `Authorization: Bearer pt_….secret`. */
export function parseAuthorization(header: string | null): Presented {
  if (!header) throw unauthorized("Missing Authorization header: use HTTP Basic with api_id:api_secret, or Bearer with a personal token.");
  const match = /^(\S+) +(\S+)$/.exec(header.trim());
  if (!match) throw unauthorized("Malformed Authorization header.");
  const scheme = match[1]!.toLowerCase();
  const value = match[2]!;
  if (scheme === "basic") {
    const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    if (colon <= 0 || colon === decoded.length - 1) throw unauthorized("Malformed Basic credentials: expected base64(api_id:api_secret).");
    return { scheme: "basic", publicId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  if (scheme === "bearer") {
    const dot = value.indexOf(".");
    if (dot <= 0 || dot === value.length - 1) throw unauthorized("Malformed Bearer token.");
    return { scheme: "bearer", publicId: value.slice(0, dot), secret: value.slice(dot + 1) };
  }
  throw unauthorized(`Unsupported authorization scheme "${match[1]}": use Basic or Bearer.`);
}

const PUBLIC_ID = /^(ak|pt)_[A-Za-z0-9_-]{1,64}$/;

/** How often `last_used_at` is written at most, per credential: not one write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** What a request learns of the merchant behind a credential: who it is and whether it may use the API. */
export type AccountHolder = Pick<Merchant, "id" | "name" | "status" | "apiAccess">;
type CredentialRow = { credential: Credential; merchant: AccountHolder };

/**
 * How long the API keeps a credential's row (its hash, revocation, expiry, and the merchant's status and access)
 * before reading it again. A revocation, suspension or loss of access made on this server takes effect at once
 * (`forgetCredentials`); one made on another server within this long. The secret is checked on every request.
 */
export const CREDENTIAL_CACHE_MS = 2_000;
/** Rows kept at most per database: beyond it the oldest go (unknown ids are never kept). */
const MAX_CACHED_CREDENTIALS = 10_000;

type CachedRow = { row: Promise<CredentialRow | undefined>; readAt: number };
// On globalThis so that every bundle of the server shares one cache; per database (tests open several).
const cacheStore = globalThis as typeof globalThis & { __storefrontCredentials?: WeakMap<object, Map<string, CachedRow>> };
const credentialCache = (db: Db) => {
  const all = (cacheStore.__storefrontCredentials ??= new WeakMap());
  let rows = all.get(db);
  if (!rows) all.set(db, (rows = new Map()));
  return rows;
};

/** Drops what this process keeps of credentials, after a change to one of them or to a merchant's access. */
export function forgetCredentials(db: Db): void {
  cacheStore.__storefrontCredentials?.delete(db);
}

function readCredentialRow(db: Db, publicId: string): Promise<CredentialRow | undefined> {
  return db
    .select({
      credential: merchantCredentials,
      merchant: { id: merchants.id, name: merchants.name, status: merchants.status, apiAccess: merchants.apiAccess },
    })
    .from(merchantCredentials)
    .innerJoin(merchants, eq(merchants.id, merchantCredentials.merchantId))
    .where(eq(merchantCredentials.publicId, publicId))
    .then((rows) => rows[0]);
}

/** The credential's row, from the cache while it is fresh (`CREDENTIAL_CACHE_MS`); concurrent requests share one read. */
function cachedCredentialRow(db: Db, publicId: string, nowMs: number): Promise<CredentialRow | undefined> {
  const rows = credentialCache(db);
  const held = rows.get(publicId);
  if (held && nowMs - held.readAt < CREDENTIAL_CACHE_MS && nowMs >= held.readAt) return held.row;
  const row = readCredentialRow(db, publicId);
  const entry = { row, readAt: nowMs };
  rows.delete(publicId);
  rows.set(publicId, entry);
  if (rows.size > MAX_CACHED_CREDENTIALS) rows.delete(rows.keys().next().value!);
  // An unknown id or a failed read is not kept: only rows that exist are.
  row.then(
    (found) => {
      if (!found && rows.get(publicId) === entry) rows.delete(publicId);
    },
    () => {
      if (rows.get(publicId) === entry) rows.delete(publicId);
    },
  );
  return row;
}

/**
 * The merchant and credential behind presented credentials, or a DomainError: unauthorized for an unknown, wrong, expired or
 * revoked credential, or a business key sent as Bearer (or a token as Basic); forbidden for a suspended merchant. Shared by
 * the API (`authenticate`, which reads the row through a short cache) and the dashboard's sign-in; API access and the last
 * use are the caller's to check and record.
 */
export async function verifyCredential(
  db: Db,
  presented: Presented,
  now = new Date(),
  opts: { cached?: boolean } = {},
): Promise<{ merchant: AccountHolder; credential: Credential }> {
  // Ids are `ak_`/`pt_` and base64url: anything else (NUL bytes, broken UTF-8, a megabyte) is no id, and is not looked up.
  if (!PUBLIC_ID.test(presented.publicId)) throw unauthorized(WRONG);
  const row = opts.cached ? await cachedCredentialRow(db, presented.publicId, now.getTime()) : await readCredentialRow(db, presented.publicId);
  // The hash is compared even for an unknown id, so that timing does not tell which ids exist.
  const matches = secretMatches(presented.secret, row?.credential.secretHash ?? "0".repeat(64));
  if (!row || !matches) throw unauthorized(WRONG);
  const { credential, merchant } = row;
  const expected = credential.kind === "business" ? "basic" : "bearer";
  if (presented.scheme !== expected) {
    throw unauthorized(
      credential.kind === "business"
        ? "A business key is sent with HTTP Basic (api_id:api_secret), not Bearer."
        : "A personal token is sent as Bearer, not Basic.",
    );
  }
  if (credential.revokedAt) throw unauthorized("This credential was revoked.");
  if (credential.expiresAt && credential.expiresAt <= now) throw unauthorized("This credential has expired.");
  if (merchant.status === "suspended") throw new DomainError("forbidden", "This account is suspended.");
  return { merchant, credential };
}

/** Records that a credential was used, at most once a minute (`LAST_USED_RESOLUTION_MS`). */
export async function recordCredentialUse(db: Db, credential: Pick<Credential, "id" | "lastUsedAt">, now = new Date()): Promise<void> {
  if (credential.lastUsedAt && now.getTime() - credential.lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS) return;
  // A cached row is the same object for the next requests: they see this write and do not repeat it.
  credential.lastUsedAt = now;
  await db.update(merchantCredentials).set({ lastUsedAt: now }).where(eq(merchantCredentials.id, credential.id));
}

/**
 * The merchant and credential behind an Authorization header, or a DomainError: unauthorized for a missing, malformed,
 * unknown, wrong, expired or revoked credential, or a business key sent as Bearer (or a token as Basic); forbidden for a
 * suspended merchant or one without API access.
 */
export async function authenticate(db: Db, header: string | null, now = new Date()): Promise<{ merchant: AccountHolder; credential: Credential }> {
  const { merchant, credential } = await verifyCredential(db, parseAuthorization(header), now, { cached: true });
  if (!merchant.apiAccess) throw new DomainError("forbidden", "This account has no API access.");
  await recordCredentialUse(db, credential, now);
  return { merchant, credential };
}

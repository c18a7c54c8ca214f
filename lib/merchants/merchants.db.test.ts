import { DomainError } from "@/lib/platform/errors";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { ledgerEntries, merchantCredentials, merchants } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import {
  authenticate,
  balanceOf,
  CREDENTIAL_CACHE_MS,
  BalanceTooLow,
  createMerchant,
  credit,
  debit,
  issueCredential,
  listLedger,
  refund,
  revokeCredential,
  setMerchantAccess,
} from ".";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function refused(header: string | null): Promise<DomainError> {
  const err = await authenticate(database.db, header).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe(`merchants and credentials on ${testDriver}`, () => {
  it("creates a merchant whose secrets are shown once and stored only as hashes", async () => {
    const m = await createMerchant(database.db, { name: "Acme", creditCents: 10_000n });
    expect(m.merchant_id).toMatch(/^mer_[0-9A-Z]{26}$/);
    expect(m.api_id).toMatch(/^ak_[\w-]{16}$/);
    expect(m.api_secret).toMatch(/^sk_[\w-]{43}$/);
    expect(m.api_token).toMatch(/^pt_[\w-]{16}\.[\w-]{43}$/);
    expect(m.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await database.db.select().from(merchantCredentials).where(eq(merchantCredentials.merchantId, m.merchant_id));
    expect(stored).toHaveLength(2);
    for (const c of stored) {
      expect(c.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(c)).not.toContain(m.api_secret.slice(3));
      expect(JSON.stringify(c)).not.toContain(m.api_token.split(".")[1]);
    }
    expect(await balanceOf(database.db, m.merchant_id)).toBe(10_000n);
    expect((await listLedger(database.db, m.merchant_id, { limit: 10 })).map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ["credit", 10_000n, 10_000n],
    ]);
  });

  it("lets in a business key over Basic and a personal token over Bearer, and records the last use", async () => {
    const m = await createMerchant(database.db, { name: "Both" });
    const viaBasic = await authenticate(database.db, basic(m.api_id, m.api_secret));
    expect(viaBasic.merchant.id).toBe(m.merchant_id);
    expect(viaBasic.credential.kind).toBe("business");
    const viaBearer = await authenticate(database.db, `Bearer ${m.api_token}`);
    expect(viaBearer.credential.kind).toBe("personal");
    const [row] = await database.db.select().from(merchantCredentials).where(eq(merchantCredentials.id, viaBasic.credential.id));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("writes the last use at most once a minute per credential, not once per request", async () => {
    const m = await createMerchant(database.db, { name: "Busy" });
    const lastUsed = async () => {
      const [row] = await database.db.select().from(merchantCredentials).where(eq(merchantCredentials.publicId, m.api_id));
      return row?.lastUsedAt?.getTime();
    };
    const t0 = new Date("2030-01-01T00:00:00Z");
    await authenticate(database.db, basic(m.api_id, m.api_secret), t0);
    expect(await lastUsed()).toBe(t0.getTime());
    await authenticate(database.db, basic(m.api_id, m.api_secret), new Date(t0.getTime() + 59_000));
    expect(await lastUsed()).toBe(t0.getTime());
    const later = new Date(t0.getTime() + 61_000);
    await authenticate(database.db, basic(m.api_id, m.api_secret), later);
    expect(await lastUsed()).toBe(later.getTime());
  });

  it("answers 401 for a missing, malformed, wrong, revoked or expired credential and the wrong scheme, without saying which part was wrong", async () => {
    const m = await createMerchant(database.db, { name: "Strict" });
    for (const header of [null, "", "Basic", "Basic !!!", "Basic " + Buffer.from("no-colon").toString("base64"), "Token abc", "Bearer nodot", "Bearer . "]) {
      expect((await refused(header)).code).toBe("unauthorized");
    }
    const wrongSecret = await refused(basic(m.api_id, "sk_wrong"));
    const unknownId = await refused(basic("ak_unknown", m.api_secret));
    expect([wrongSecret.code, unknownId.code]).toEqual(["unauthorized", "unauthorized"]);
    expect(wrongSecret.message).toBe(unknownId.message);
    expect((await refused(`Bearer ${m.api_id}.${m.api_secret}`)).message).toMatch(/business key is sent with HTTP Basic/);
    const [pub, secret] = m.api_token.split(".") as [string, string];
    expect((await refused(basic(pub, secret))).message).toMatch(/personal token is sent as Bearer/);

    const extra = await issueCredential(database.db, m.merchant_id, "business", "CI key");
    await authenticate(database.db, basic(extra.api_id!, extra.api_secret!));
    expect(await revokeCredential(database.db, m.merchant_id, extra.id)).toBe(true);
    expect(await revokeCredential(database.db, m.merchant_id, extra.id)).toBe(false);
    expect((await refused(basic(extra.api_id!, extra.api_secret!))).message).toMatch(/revoked/);

    const expiring = await issueCredential(database.db, m.merchant_id, "personal", "Short", new Date(Date.now() - 1000));
    expect((await refused(`Bearer ${expiring.api_token}`)).message).toMatch(/expired/);
  });

  it("answers 403 for a suspended account or one without API access", async () => {
    const m = await createMerchant(database.db, { name: "Paused" });
    await setMerchantAccess(database.db, m.merchant_id, { apiAccess: false });
    expect(await refused(basic(m.api_id, m.api_secret))).toMatchObject({ code: "forbidden", message: "This account has no API access." });
    await setMerchantAccess(database.db, m.merchant_id, { apiAccess: true, status: "suspended" });
    expect(await refused(`Bearer ${m.api_token}`)).toMatchObject({ code: "forbidden", message: "This account is suspended." });
  });
});

describe(`the API's credential cache on ${testDriver}`, () => {
  it("keeps a credential's row for a moment, checks the secret every time, and sees another server's revocation or suspension within the cache's time", async () => {
    const m = await createMerchant(database.db, { name: "Cached" });
    const header = basic(m.api_id, m.api_secret);
    const t0 = new Date(Date.now() + 3_600_000);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const { credential } = await authenticate(database.db, header, t0);

    // Another server revokes the key: written to the database, this process not told.
    await database.db.update(merchantCredentials).set({ revokedAt: t0 }).where(eq(merchantCredentials.id, credential.id));
    expect((await authenticate(database.db, header, at(CREDENTIAL_CACHE_MS / 2))).credential.id).toBe(credential.id);
    // The secret is still compared on every request, cached row or not.
    expect((await authenticate(database.db, basic(m.api_id, "sk_wrong"), at(CREDENTIAL_CACHE_MS / 2)).catch((e: unknown) => e)) as DomainError).toMatchObject({
      code: "unauthorized",
      message: "Invalid API credentials.",
    });
    const late = await authenticate(database.db, header, at(CREDENTIAL_CACHE_MS + 1)).catch((e: unknown) => e);
    expect(late).toMatchObject({ code: "unauthorized", message: "This credential was revoked." });

    // Another server suspends the merchant: the token is refused within the cache's time too.
    const token = `Bearer ${m.api_token}`;
    await authenticate(database.db, token, at(10_000));
    await database.db.update(merchants).set({ status: "suspended" }).where(eq(merchants.id, m.merchant_id));
    const suspended = await authenticate(database.db, token, at(10_000 + CREDENTIAL_CACHE_MS + 1)).catch((e: unknown) => e);
    expect(suspended).toMatchObject({ code: "forbidden", message: "This account is suspended." });
  });

  it("answers concurrent requests of one credential from one read, and keeps no unknown id", async () => {
    const m = await createMerchant(database.db, { name: "Concurrent" });
    const now = new Date(Date.now() + 7_200_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => authenticate(database.db, `Bearer ${m.api_token}`, now)));
    expect(new Set(results.map((r) => r.credential)).size).toBe(1);
    // Unknown ids are not kept: guessing many fills nothing.
    const kept = () => (globalThis as { __storefrontCredentials?: WeakMap<object, Map<string, unknown>> }).__storefrontCredentials?.get(database.db)?.size ?? 0;
    const before = kept();
    for (let i = 0; i < 50; i++) await authenticate(database.db, basic(`ak_guess${i}`, "sk_guess"), now).catch(() => undefined);
    expect(kept()).toBe(before);
  });
});

describe(`the balance ledger on ${testDriver}`, () => {
  it("credits, debits and refunds with the running balance; a debit it cannot cover names both amounts", async () => {
    const { merchant_id } = await createMerchant(database.db, { name: "Ledger" });
    await credit(database.db, { merchantId: merchant_id, amountCents: 2_500n, note: "Top-up" });
    const inv = await seedInvoice(merchant_id);
    await database.db.transaction((tx) => debit(tx, { merchantId: merchant_id, amountCents: 1_000n, invoiceId: inv.invoiceId }));
    expect(await balanceOf(database.db, merchant_id)).toBe(1_500n);
    const err = await database.db
      .transaction((tx) => debit(tx, { merchantId: merchant_id, amountCents: 2_000n, invoiceId: inv.invoiceId }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BalanceTooLow);
    expect((err as BalanceTooLow).message).toBe("Balance too low: this invoice needs 20.00 USD and the balance is 15.00 USD.");
    expect(await balanceOf(database.db, merchant_id)).toBe(1_500n);

    expect(await database.db.transaction((tx) => refund(tx, { merchantId: merchant_id, amountCents: 1_000n, orderId: inv.orderId }))).not.toBeNull();
    // A retried refund of the same order changes nothing.
    expect(await database.db.transaction((tx) => refund(tx, { merchantId: merchant_id, amountCents: 1_000n, orderId: inv.orderId }))).toBeNull();
    expect(await balanceOf(database.db, merchant_id)).toBe(2_500n);
    const ledger = await listLedger(database.db, merchant_id, { limit: 10 });
    expect(ledger.map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ["refund", 1_000n, 2_500n],
      ["debit", 1_000n, 1_500n],
      ["credit", 2_500n, 2_500n],
    ]);
    expect(await listLedger(database.db, merchant_id, { limit: 10, before: ledger[1]!.id })).toHaveLength(1);
  });

  it("never overdraws: of 50 concurrent debits of $1 against $20, exactly 20 succeed", async () => {
    const { merchant_id } = await createMerchant(database.db, { name: "Race", creditCents: 2_000n });
    const inv = await seedInvoice(merchant_id);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => database.db.transaction((tx) => debit(tx, { merchantId: merchant_id, amountCents: 100n, invoiceId: inv.invoiceId }))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    expect(results.filter((r) => r.status === "rejected" && r.reason instanceof BalanceTooLow)).toHaveLength(30);
    expect(await balanceOf(database.db, merchant_id)).toBe(0n);
    // The ledger agrees with the balance: one credit and exactly 20 debits.
    const entries = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.merchantId, merchant_id));
    expect(entries.filter((e) => e.kind === "debit")).toHaveLength(20);
    expect(entries.map((e) => e.balanceAfterCents).sort((a, b) => Number(a - b))[0]).toBe(0n);
  });
});

/** An invoice with one order for the merchant, for ledger entries to point at. */
async function seedInvoice(merchantId: string): Promise<{ invoiceId: string; orderId: string }> {
  const { invoices, orders } = await import("@/lib/platform/db/schema");
  const { newId } = await import("@/lib/platform/ids");
  const invoiceId = newId("inv");
  const orderId = newId("ord");
  await database.db
    .insert(invoices)
    .values({ id: invoiceId, payer: `merchant:${merchantId}`, priceUsdc: 10_000_000n, expiresAt: new Date(Date.now() + 60_000), merchantId, source: "api" });
  await database.db.insert(orders).values({
    id: orderId,
    invoiceId,
    position: 0,
    productId: "test-gift-card-code",
    productName: "Test",
    productKind: "gift_card",
    packageValue: "10",
    faceValueMinor: 1000n,
    currency: "USD",
    priceUsdc: 10_000_000n,
  });
  return { invoiceId, orderId };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { DomainError } from "@/lib/platform/errors";
import { authenticate, createMerchant, issueCredential } from "@/lib/merchants";
import { createKey, listKeys, MAX_ACTIVE_KEYS, revokeKey } from "./keys";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

describe(`dashboard API keys on ${testDriver}`, () => {
  it("creates a business key and a personal token whose secrets work on the API, shown only in the answer", async () => {
    const m = await createMerchant(database.db, { name: "Keys" });
    const business = await createKey(database.db, m.merchant_id, { name: "  Warehouse  ", kind: "business" });
    if (!business.ok) throw new Error(business.error);
    expect(business.issued).toMatchObject({
      name: "Warehouse",
      kind: "business",
      api_id: expect.stringMatching(/^ak_/),
      api_secret: expect.stringMatching(/^sk_/),
    });
    expect((await authenticate(database.db, basic(business.issued.api_id!, business.issued.api_secret!))).credential.id).toBe(business.issued.id);

    const personal = await createKey(database.db, m.merchant_id, { name: "Laptop", kind: "personal" });
    if (!personal.ok) throw new Error(personal.error);
    expect(personal.issued.api_token).toMatch(/^pt_[\w-]+\.[\w-]+$/);
    expect((await authenticate(database.db, `Bearer ${personal.issued.api_token}`)).credential.kind).toBe("personal");

    const rows = await listKeys(database.db, m.merchant_id);
    expect(rows.map((r) => [r.name, r.kind, r.status])).toEqual(
      expect.arrayContaining([
        ["Warehouse", "business", "active"],
        ["Laptop", "personal", "active"],
        ["Default business key", "business", "active"],
      ]),
    );
    expect(JSON.stringify(rows)).not.toContain(business.issued.api_secret);
    expect(rows.find((r) => r.id === business.issued.id)?.lastUsedAt).toBeInstanceOf(Date);
    expect(rows.find((r) => r.name === "Default personal token")?.lastUsedAt).toBeNull();
  });

  it("validates the form", async () => {
    const m = await createMerchant(database.db, { name: "Forms" });
    expect(await createKey(database.db, m.merchant_id, { name: " ", kind: "business" })).toMatchObject({ ok: false, field: "name" });
    expect(await createKey(database.db, m.merchant_id, { name: "x".repeat(61), kind: "business" })).toMatchObject({ ok: false, field: "name" });
    expect(await createKey(database.db, m.merchant_id, { name: "Ok", kind: "admin" })).toMatchObject({ ok: false, field: "kind" });
    expect(await revokeKey(database.db, m.merchant_id, { id: "'; DROP TABLE merchants; --" })).toEqual({ ok: false, error: "No such key." });
  });

  it("revokes a key: the API answers 401 to it, the list says revoked; another merchant's key cannot be revoked", async () => {
    const m = await createMerchant(database.db, { name: "Revokes" });
    const stranger = await createMerchant(database.db, { name: "Stranger" });
    const made = await createKey(database.db, m.merchant_id, { name: "Temp", kind: "business" });
    if (!made.ok) throw new Error(made.error);
    const theirs = await issueCredential(database.db, stranger.merchant_id, "business", "Theirs");
    expect(await revokeKey(database.db, m.merchant_id, { id: theirs.id })).toMatchObject({ ok: false });
    expect((await authenticate(database.db, basic(theirs.api_id!, theirs.api_secret!))).merchant.id).toBe(stranger.merchant_id);

    expect(await revokeKey(database.db, m.merchant_id, { id: made.issued.id })).toEqual({
      ok: true,
      id: made.issued.id,
      name: "Temp",
      publicId: made.issued.api_id,
    });
    expect(await revokeKey(database.db, m.merchant_id, { id: made.issued.id })).toMatchObject({ ok: false });
    const err = await authenticate(database.db, basic(made.issued.api_id!, made.issued.api_secret!)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe("unauthorized");
    expect((await listKeys(database.db, m.merchant_id)).find((r) => r.id === made.issued.id)?.status).toBe("revoked");
  });

  it("lists an expired credential as expired, and caps the active keys of an account", async () => {
    const m = await createMerchant(database.db, { name: "Many" });
    const old = await issueCredential(database.db, m.merchant_id, "personal", "Old", new Date(Date.now() - 1000));
    expect((await listKeys(database.db, m.merchant_id)).find((r) => r.id === old.id)?.status).toBe("expired");
    // Two defaults exist; the expired one does not count.
    for (let i = 2; i < MAX_ACTIVE_KEYS; i++) await issueCredential(database.db, m.merchant_id, "business", `k${i}`);
    const refused = await createKey(database.db, m.merchant_id, { name: "One too many", kind: "business" });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/revoke one/) });
  });
});

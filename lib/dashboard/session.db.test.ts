import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { createMerchant, issueCredential, revokeCredential, setMerchantAccess } from "@/lib/merchants";
import { resolveDashboardSession } from "./session";
import { issueDashboardSession } from "./session-token";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const secret = "dashboard-session-test-secret-0123456789";
const resolve = (token: string | undefined, now?: Date) => resolveDashboardSession(database.db, token, { secret, now });

async function signedIn(expiresAt?: Date) {
  const m = await createMerchant(database.db, { name: "Session shop" });
  const cred = await issueCredential(database.db, m.merchant_id, "business", "Signed in with", expiresAt);
  const { token } = await issueDashboardSession({ merchantId: m.merchant_id, credentialId: cred.id }, { secret });
  return { m, cred, token };
}

describe(`dashboard sessions on ${testDriver}`, () => {
  it("resolve to the merchant and the credential used to sign in, without its hash", async () => {
    const { m, cred, token } = await signedIn();
    const s = await resolve(token);
    expect(s).toMatchObject({
      merchant: { id: m.merchant_id, name: "Session shop" },
      credential: { id: cred.id },
      session: { merchantId: m.merchant_id, credentialId: cred.id },
    });
    expect(s?.credential).not.toHaveProperty("secretHash");
  });

  it("end when the credential used to sign in is revoked, and not when another one is", async () => {
    const { m, cred, token } = await signedIn();
    const other = await issueCredential(database.db, m.merchant_id, "personal", "Other");
    await revokeCredential(database.db, m.merchant_id, other.id);
    expect(await resolve(token)).not.toBeNull();
    await revokeCredential(database.db, m.merchant_id, cred.id);
    expect(await resolve(token)).toBeNull();
  });

  it("end when the credential expires or the merchant is suspended", async () => {
    const soon = new Date(Date.now() + 60_000);
    const expiring = await signedIn(soon);
    expect(await resolve(expiring.token)).not.toBeNull();
    expect(await resolve(expiring.token, new Date(soon.getTime() + 1000))).toBeNull();

    const { m, token } = await signedIn();
    await setMerchantAccess(database.db, m.merchant_id, { status: "suspended" });
    expect(await resolve(token)).toBeNull();
    await setMerchantAccess(database.db, m.merchant_id, { status: "active" });
    expect(await resolve(token)).not.toBeNull();
  });

  it("refuse a session naming a credential of another merchant, a missing one, or no token", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const crossed = await issueDashboardSession({ merchantId: a.m.merchant_id, credentialId: b.cred.id }, { secret });
    expect(await resolve(crossed.token)).toBeNull();
    const missing = await issueDashboardSession({ merchantId: a.m.merchant_id, credentialId: "key_01JZ0000000000000000000000" }, { secret });
    expect(await resolve(missing.token)).toBeNull();
    expect(await resolve(undefined)).toBeNull();
    expect(await resolveDashboardSession(database.db, a.token, { secret: "another-secret-entirely-0123456789" })).toBeNull();
  });
});

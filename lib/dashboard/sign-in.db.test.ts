import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { merchantCredentials } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { createMerchant, issueCredential, revokeCredential, setMerchantAccess } from "@/lib/merchants";
import { createRateLimiter, DEFAULT_POLICIES, type RateLimiter } from "@/lib/platform/ratelimit";
import { INVALID_CREDENTIALS, signIn } from "./sign-in";

let database: Database;
let limiter: RateLimiter;
beforeAll(async () => {
  database = await openTestDatabase();
  limiter = await createRateLimiter({ kind: "memory" });
});
afterAll(async () => {
  await limiter?.close();
  await database?.close();
});

const key = (api_id: string, api_secret: string) => ({ mode: "key", api_id, api_secret });
const token = (api_token: string) => ({ mode: "token", api_token });
const attempt = (form: unknown, ip?: string, l = limiter) => signIn(database.db, form, { limiter: l, ip });

describe(`dashboard sign-in on ${testDriver}`, () => {
  it("signs in with a business key's id and secret, or with a personal token, and records the use", async () => {
    const m = await createMerchant(database.db, { name: "Signs in" });
    const viaKey = await attempt(key(` ${m.api_id} `, `${m.api_secret}\n`));
    expect(viaKey).toMatchObject({ ok: true, merchant: { id: m.merchant_id }, credential: { kind: "business", publicId: m.api_id } });
    const viaToken = await attempt(token(m.api_token));
    expect(viaToken).toMatchObject({ ok: true, merchant: { id: m.merchant_id }, credential: { kind: "personal" } });
    const [row] = await database.db.select().from(merchantCredentials).where(eq(merchantCredentials.publicId, m.api_id));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("answers wrong credentials with one message that never says which part was wrong", async () => {
    const m = await createMerchant(database.db, { name: "Wrong" });
    const [pub, secret] = m.api_token.split(".") as [string, string];
    const revoked = await issueCredential(database.db, m.merchant_id, "business", "Old");
    await revokeCredential(database.db, m.merchant_id, revoked.id);
    const expired = await issueCredential(database.db, m.merchant_id, "personal", "Short", new Date(Date.now() - 1000));
    const wrong = [
      key(m.api_id, "sk_wrong"),
      key("ak_unknown", m.api_secret),
      key(pub, secret), // a personal token's parts as a key pair
      token(`${m.api_id}.${m.api_secret}`), // a key pair as a token
      token("no-dot-at-all"),
      token("pt_x.y z"),
      key(revoked.api_id!, revoked.api_secret!),
      token(expired.api_token!),
    ];
    for (const form of wrong) expect(await attempt(form, undefined), JSON.stringify(form)).toEqual({ ok: false, error: INVALID_CREDENTIALS });
  });

  it("asks for missing fields by name, and refuses an unknown mode", async () => {
    expect(await attempt(key("", "x"))).toEqual({ ok: false, error: "Enter your API ID." });
    expect(await attempt(key("ak_x", "  "))).toEqual({ ok: false, error: "Enter your API secret." });
    expect(await attempt(token(""))).toEqual({ ok: false, error: "Enter your personal token." });
    expect((await attempt({ mode: "password", api_id: "a" })).ok).toBe(false);
    expect((await attempt(null)).ok).toBe(false);
  });

  it("refuses a suspended merchant, saying so only once the secret matched; a merchant without API access signs in", async () => {
    const m = await createMerchant(database.db, { name: "Paused" });
    await setMerchantAccess(database.db, m.merchant_id, { apiAccess: false });
    expect((await attempt(key(m.api_id, m.api_secret))).ok).toBe(true);
    await setMerchantAccess(database.db, m.merchant_id, { status: "suspended" });
    expect(await attempt(key(m.api_id, m.api_secret))).toEqual({ ok: false, error: "This account is suspended. Contact the shop's operator." });
    expect(await attempt(key(m.api_id, "sk_wrong"))).toEqual({ ok: false, error: INVALID_CREDENTIALS });
  });

  it("limits failed sign-ins per credential id and per client IP, says when to try again, and does not count successes", async () => {
    const rl = await createRateLimiter({ kind: "memory" }, DEFAULT_POLICIES);
    try {
      const m = await createMerchant(database.db, { name: "Guessed" });
      const ip = "203.0.113.50";
      // Successes give their point back: 20 in a row are never limited.
      for (let i = 0; i < 20; i++) expect((await attempt(key(m.api_id, m.api_secret), ip, rl)).ok).toBe(true);
      for (let i = 0; i < 10; i++) expect(await attempt(key(m.api_id, `sk_guess_${i}`), undefined, rl)).toEqual({ ok: false, error: INVALID_CREDENTIALS });
      // The 11th attempt on that id is refused before the credentials are even checked: the right secret too.
      const limited = await attempt(key(m.api_id, m.api_secret), ip, rl);
      expect(limited).toEqual({ ok: false, error: "Too many failed sign-ins. Try again in 15 minutes.", retryAfterSec: 900 });
      // The same merchant's personal token is another credential id: not limited.
      expect((await attempt(token(m.api_token), ip, rl)).ok).toBe(true);

      // One address trying many ids: refused after 10 failures, whatever id comes next.
      const other = await createMerchant(database.db, { name: "Elsewhere" });
      for (let i = 0; i < 10; i++) expect((await attempt(key(`ak_guess_${i}`, "sk_x"), "198.51.100.9", rl)).ok).toBe(false);
      expect(await attempt(key(other.api_id, other.api_secret), "198.51.100.9", rl)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^Too many failed sign-ins/),
      });
      expect((await attempt(key(other.api_id, other.api_secret), "198.51.100.10", rl)).ok).toBe(true);
    } finally {
      await rl.close();
    }
  });
});

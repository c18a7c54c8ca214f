import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { authenticate, balanceOf, getMerchant } from "@/lib/merchants";
import { createRateLimiter, DEMO_MERCHANT_LIMIT, type RateLimiter } from "@/lib/platform/ratelimit";
import { createDemoMerchant } from "./demo-merchant";
import { resolveDashboardSession } from "./session";
import { issueDashboardSession } from "./session-token";

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

describe(`a demo merchant (devnet) on ${testDriver}`, () => {
  it("is a merchant as the admin API makes one: working API credentials, a $100 balance, and a dashboard session for its key", async () => {
    const made = await createDemoMerchant(database.db, { limiter, ip: "203.0.113.50" });
    if (!made.ok) throw new Error("refused");
    const m = made.merchant;
    expect(m.name).toMatch(/^Demo merchant [0-9a-f]{6}$/);
    expect((await getMerchant(database.db, m.merchant_id))?.name).toBe(m.name);
    expect(await balanceOf(database.db, m.merchant_id)).toBe(10_000n);
    expect(m.balance_cents).toBe(10_000);
    const basic = `Basic ${Buffer.from(`${m.api_id}:${m.api_secret}`).toString("base64")}`;
    expect((await authenticate(database.db, basic)).merchant.id).toBe(m.merchant_id);
    expect((await authenticate(database.db, `Bearer ${m.api_token}`)).merchant.id).toBe(m.merchant_id);
    expect(m.webhook_secret).toMatch(/^whsec_/);

    const { token } = await issueDashboardSession({ merchantId: m.merchant_id, credentialId: m.credentialId });
    expect(await resolveDashboardSession(database.db, token)).toMatchObject({ merchant: { id: m.merchant_id }, credential: { publicId: m.api_id } });
  });

  it("is limited per client address; this machine's clients share one budget", async () => {
    const ip = "198.51.100.60";
    for (let i = 0; i < DEMO_MERCHANT_LIMIT.points; i++) expect((await createDemoMerchant(database.db, { limiter, ip })).ok).toBe(true);
    const refused = await createDemoMerchant(database.db, { limiter, ip });
    expect(refused).toEqual({ ok: false, retryAfterSec: DEMO_MERCHANT_LIMIT.durationSec });
    // Another address still may; so may loopback until its own budget is spent.
    expect((await createDemoMerchant(database.db, { limiter, ip: "198.51.100.61" })).ok).toBe(true);
    for (let i = 0; i < DEMO_MERCHANT_LIMIT.points; i++) expect((await createDemoMerchant(database.db, { limiter })).ok).toBe(true);
    expect((await createDemoMerchant(database.db, { limiter })).ok).toBe(false);
  });
});

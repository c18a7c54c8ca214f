import { describe, expect, it, vi } from "vitest";
import { config, parseConfig, serverRequirements } from "@/lib/platform/config";
import { DEFAULT_POLICIES, MERCHANT_LIMITS, PRODUCT_QUOTA, X402_LIMITS } from "./policies";

// The process's limiter on its default store, memory: skipped only when this environment points it at PostgreSQL or
// Redis (DATABASE_URL, REDIS_URL; CI sets neither for the unit tests), whose stores have tests of their own.
describe.skipIf(config().databaseUrl || config().redisUrl)("the process's rate limiter", () => {
  it("counts in memory on the embedded database, and is one instance across module reloads", async () => {
    const first = await (await import("./index")).getRateLimiter();
    expect(first.storeKind).toBe("memory");
    // `next dev` reloads modules on change; the counts must survive that.
    vi.resetModules();
    const reloaded = await import("./index");
    expect(await reloaded.getRateLimiter()).toBe(first);
  });
});

describe("the benchmark limits", () => {
  const env = (extra: Record<string, string>) => parseConfig({ ...extra }, "/tmp");

  it("raise every limit a thousandfold on the devnet only, and a production mode refuses them at start-up", async () => {
    const { processPolicies } = await import("./index");
    const devnet = processPolicies(env({ BENCHMARK_LIMITS: "1" }));
    expect(devnet.x402.wallet).toEqual({ ...X402_LIMITS.wallet, points: X402_LIMITS.wallet.points * 1000 });
    expect(devnet.merchant["GET /products"].points).toBe(MERCHANT_LIMITS["GET /products"].points * 1000);
    expect(devnet.productQuota.routes).toEqual(PRODUCT_QUOTA.routes);
    expect(processPolicies(env({}))).toEqual(DEFAULT_POLICIES);

    const mainnet = env({ BENCHMARK_LIMITS: "1", NETWORK_MODE: "mainnet", SESSION_SECRET: "s".repeat(32) });
    expect(processPolicies(mainnet)).toEqual(DEFAULT_POLICIES);
    expect(serverRequirements(mainnet, {})).toEqual([{ variable: "BENCHMARK_LIMITS", message: expect.stringMatching(/devnet only/) }]);
    expect(() => env({ BENCHMARK_LIMITS: "yes" })).toThrow(/BENCHMARK_LIMITS: must be 1/);
  });
});

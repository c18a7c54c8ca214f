/**
 * API rate limits. A route handler counts each request before doing its work:
 *
 *   const decision = await (await getRateLimiter()).consume("GET /products/{id}", merchant.id);
 *   if (!decision.allowed) return rateLimitedResponse("/products/apple-us", decision); // lib/api/merchant/rate-limited.ts
 *   return Response.json(body, { headers: decision.headers }); // every response carries the rate-limit fields
 *
 * The /x402 routes call `consumeX402({ ip, wallet })` the same way and answer a refusal with their own error shape
 * (status 429, `decision.headers`, which include Retry-After).
 */
import { config } from "@/lib/platform/config";
import { getDatabase } from "@/lib/platform/db";
import { onShutdown } from "@/lib/platform/runtime/shutdown";
import { createRateLimiter, type RateLimiter } from "./limiter";
import { BENCHMARK_FACTOR, DEFAULT_POLICIES, raisedPolicies, type RateLimitPolicies } from "./policies";
import { connectRedis, type RateLimitStore } from "./store";

export {
  createRateLimiter,
  ipNetwork,
  ipSubject,
  walletSubject,
  type GuessSubject,
  type RateLimitDecision,
  type RateLimiter,
  type SignInSubject,
} from "./limiter";
export { rateLimitHeaders, type PolicyState } from "./headers";
export {
  DASHBOARD_SIGN_IN_LIMITS,
  DEFAULT_POLICIES,
  DEMO_MERCHANT_LIMIT,
  MERCHANT_ANONYMOUS_LIMIT,
  MERCHANT_LIMITS,
  PRODUCT_QUOTA,
  X402_LIMITS,
  type LimitRule,
  type MerchantRouteId,
  type Policy,
  type RateLimitPolicies,
} from "./policies";
export { describeRule, rateLimitMessage } from "./responses";
export { RATE_LIMIT_TABLE, type RateLimitStore } from "./store";

const globalForRateLimiter = globalThis as typeof globalThis & { __storefrontRateLimiter?: Promise<RateLimiter> };

/**
 * The process's rate limiter, made once. The promise lives on globalThis so that `next dev` module reloads keep
 * the counts instead of starting from zero.
 */
export function getRateLimiter(): Promise<RateLimiter> {
  if (!globalForRateLimiter.__storefrontRateLimiter) {
    const opening = defaultStore().then((store) => createRateLimiter(store, processPolicies()));
    globalForRateLimiter.__storefrontRateLimiter = opening;
    // A failed start is not cached: the next request tries again.
    opening.catch(() => {
      if (globalForRateLimiter.__storefrontRateLimiter === opening) globalForRateLimiter.__storefrontRateLimiter = undefined;
    });
  }
  return globalForRateLimiter.__storefrontRateLimiter;
}

/**
 * The shop's limits; raised for the devnet benchmarks (BENCHMARK_LIMITS=1, which start-up refuses outside the devnet
 * and which is ignored here outside it too: no production setting can lift a limit).
 */
export function processPolicies(c = config()): RateLimitPolicies {
  return c.benchmarkLimits && c.networkMode === "devnet" && !c.vercel ? raisedPolicies(DEFAULT_POLICIES, BENCHMARK_FACTOR) : DEFAULT_POLICIES;
}

/** Redis when REDIS_URL is set; else the database's table on PostgreSQL; else this process's memory (one server on PGlite). */
async function defaultStore(): Promise<RateLimitStore> {
  const c = config();
  if (c.redisUrl) {
    const client = await connectRedis(c.redisUrl);
    onShutdown(async () => {
      await client.quit().catch(() => client.disconnect());
    });
    return { kind: "redis", client };
  }
  if (c.databaseUrl) {
    const database = await getDatabase();
    if (!database.pool) throw new Error("The PostgreSQL database has no pool for the rate-limit counts");
    return { kind: "postgres", client: database.pool };
  }
  return { kind: "memory" };
}

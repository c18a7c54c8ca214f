/**
 * The rolling-window property, checked on a random schedule of requests: shared by the tests of each store
 * (memory, PostgreSQL, Redis) and of two servers on one store. Needs `Date` faked (vi.useFakeTimers({ toFake: ["Date"] })).
 */
import { randomUUID } from "node:crypto";
import { expect, vi } from "vitest";
import type { RateLimiter } from "@/lib/platform/ratelimit/limiter";
import { seededRandom } from "@/test/seeded-random";
import { DEFAULT_POLICIES, merchantPolicyName, type LimitRule, type MerchantRouteId, type RateLimitPolicies } from "@/lib/platform/ratelimit/policies";

/** Small limits with different windows, two of them on one request (the product list and search share the quota). */
export function scheduleRules(name: string): { policies: RateLimitPolicies; rules: Record<string, LimitRule> } {
  const products = { points: 5, durationSec: 10 };
  const search = { points: 4, durationSec: 7 };
  const quota = { points: 8, durationSec: 30 };
  return {
    policies: {
      ...DEFAULT_POLICIES,
      merchant: { ...DEFAULT_POLICIES.merchant, "GET /products": products, "GET /products/search": search },
      productQuota: { ...DEFAULT_POLICIES.productQuota, name, ...quota },
    },
    rules: { [merchantPolicyName("GET /products")]: products, [merchantPolicyName("GET /products/search")]: search, [name]: quota },
  };
}

type Sent = { at: number; policies: string[]; allowed: boolean; headers: Record<string, string>; refusedBy: string | undefined };

/**
 * Sends `count` requests of one account (the servers' limiters made with `scheduleRules(quotaName).policies`) at random moments (bursts a few ms apart, pauses of up to 20 s), each to a
 * random one of `servers` and of the two product routes, and checks every answer against the accepted ones:
 * - no interval of a policy's length holds more accepted requests than its points;
 * - a request is refused only by a policy that had its points accepted within the window before it, and accepted
 *   only if every policy had room (the window is exact, not merely safe);
 * - on a refusal, X-RateLimit-Reset is the moment the oldest counted request leaves the refusing window (rounded up
 *   to a second), and Retry-After the seconds until then.
 */
export async function checkRandomSchedule(servers: RateLimiter[], quotaName: string, seed: number, count = 240): Promise<void> {
  const { rules } = scheduleRules(quotaName);
  const random = seededRandom(seed);
  const account = `acct_schedule_${seed}_${randomUUID()}`;
  const sent: Sent[] = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    const gap = r < 0.5 ? Math.floor(random() * 50) : r < 0.9 ? Math.floor(random() * 3000) : Math.floor(random() * 20_000);
    vi.setSystemTime(Date.now() + gap);
    const route: MerchantRouteId = random() < 0.6 ? "GET /products" : "GET /products/search";
    const server = servers[Math.floor(random() * servers.length)]!;
    const decision = await server.consume(route, account);
    sent.push({
      at: Date.now(),
      policies: [merchantPolicyName(route), quotaName],
      allowed: decision.allowed,
      headers: decision.headers,
      refusedBy: decision.refusedBy?.name,
    });
  }

  const accepted = (policy: string) => sent.filter((s) => s.allowed && s.policies.includes(policy)).map((s) => s.at);
  for (const [policy, rule] of Object.entries(rules)) {
    const times = accepted(policy);
    const windowMs = rule.durationSec * 1000;
    for (let i = 0; i + rule.points < times.length; i++) {
      expect(times[i + rule.points]! - times[i]!, `seed ${seed}: ${policy} took ${rule.points + 1} within one window`).toBeGreaterThanOrEqual(windowMs);
    }
  }
  for (const [i, s] of sent.entries()) {
    const before = sent.slice(0, i);
    const inWindow = (policy: string) => {
      const windowMs = rules[policy]!.durationSec * 1000;
      return before.filter((b) => b.allowed && b.policies.includes(policy) && b.at > s.at - windowMs).map((b) => b.at);
    };
    const full = s.policies.filter((p) => inWindow(p).length >= rules[p]!.points);
    const what = `seed ${seed}, request ${i} at +${s.at - sent[0]!.at} ms`;
    expect(s.allowed, `${what}: full windows ${full.join(", ") || "none"}`).toBe(full.length === 0);
    if (s.allowed) continue;
    expect(full, what).toContain(s.refusedBy);
    // The reported wait is the longest of the full windows'.
    const freeAt = Math.max(...full.map((p) => inWindow(p)[0]! + rules[p]!.durationSec * 1000));
    expect(s.headers["X-RateLimit-Reset"], what).toBe(String(Math.ceil(freeAt / 1000)));
    expect(s.headers["Retry-After"], what).toBe(String(Math.max(1, Math.ceil((freeAt - s.at) / 1000))));
  }
  // The schedule did meet the limits, and the limits let requests through again.
  expect(sent.filter((s) => !s.allowed).length).toBeGreaterThan(count / 10);
  expect(sent.filter((s) => s.allowed).length).toBeGreaterThan(count / 10);
}

/** `burst` requests at one instant, spread over `servers`: exactly the route's points are let through. */
export async function checkSimultaneous(servers: RateLimiter[], account: string, burst = 40): Promise<void> {
  const rule = DEFAULT_POLICIES.merchant["GET /check_phone_number"];
  const decisions = await Promise.all(Array.from({ length: burst }, (_, i) => servers[i % servers.length]!.consume("GET /check_phone_number", account)));
  expect(decisions.filter((d) => d.allowed)).toHaveLength(rule.points);
  // The remaining counts handed out are each of 9..0 once: no two requests took the same place.
  const remaining = decisions.filter((d) => d.allowed).map((d) => Number(d.headers["X-RateLimit-Remaining"]));
  expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: rule.points }, (_, i) => i));
}

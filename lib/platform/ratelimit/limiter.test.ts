import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRateLimiter, ipNetwork, ipSubject, walletSubject, type RateLimiter } from "./limiter";
import { DEFAULT_POLICIES, MERCHANT_LIMITS, PRODUCT_QUOTA, type MerchantRouteId, type RateLimitPolicies } from "./policies";
import { checkRandomSchedule, checkSimultaneous, scheduleRules } from "@/test/rolling-window";
import { rateLimitedResponse } from "@/lib/api/merchant/rate-limited";

// Only Date is faked: the limiter reads the time from Date.now(), so windows can roll on without waiting.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 0, 0));
});
afterEach(() => vi.useRealTimers());

const limiters: RateLimiter[] = [];
async function memoryLimiter(policies?: RateLimitPolicies) {
  const limiter = await createRateLimiter({ kind: "memory" }, policies);
  limiters.push(limiter);
  return limiter;
}
afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

const nowSec = () => Math.floor(Date.now() / 1000);

/** The default table, with a product quota small enough to use up in a test. */
const smallQuota = (points: number): RateLimitPolicies => ({
  ...DEFAULT_POLICIES,
  productQuota: { ...DEFAULT_POLICIES.productQuota, points },
});

describe("rate limiter on the in-process store", () => {
  it("lets ping through once per 3 seconds, with the headers of the spec", async () => {
    const rl = await memoryLimiter();
    expect(rl.storeKind).toBe("memory");

    const first = await rl.consume("GET /ping", "cred_a");
    expect(first.allowed).toBe(true);
    expect(first.headers).toEqual({
      "X-RateLimit-Limit": "1",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(nowSec() + 3),
      "RateLimit-Limit": "1",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "3",
      "RateLimit-Policy": '"get-ping";q=1;w=3',
      RateLimit: '"get-ping";r=0;t=3',
    });
    expect(first.refusedBy).toBeUndefined();

    vi.setSystemTime(Date.now() + 1000);
    const second = await rl.consume("GET /ping", "cred_a");
    expect(second.allowed).toBe(false);
    expect(second.retryAfterSec).toBe(2);
    expect(second.refusedBy).toEqual({ name: "get-ping", points: 1, durationSec: 3 });
    expect(second.headers).toMatchObject({ "Retry-After": "2", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(nowSec() + 2) });

    vi.setSystemTime(Date.now() + 2000);
    expect((await rl.consume("GET /ping", "cred_a")).allowed).toBe(true);
  });

  it("allows exactly the table's number of requests on every route, then refuses until the window ends", async () => {
    const rl = await memoryLimiter(smallQuota(100_000));
    for (const [route, rule] of Object.entries(MERCHANT_LIMITS) as [MerchantRouteId, { points: number; durationSec: number }][]) {
      for (let i = 1; i <= rule.points; i++) {
        const d = await rl.consume(route, "cred_a");
        expect(d.allowed, `${route} request ${i}`).toBe(true);
        expect(d.headers["X-RateLimit-Remaining"]).toBe(String(rule.points - i));
      }
      const refused = await rl.consume(route, "cred_a");
      expect(refused.allowed, `${route} over the limit`).toBe(false);
      expect(refused.retryAfterSec).toBe(rule.durationSec);
      expect(refused.headers["X-RateLimit-Limit"]).toBe(String(rule.points));
    }
    // Every window has ended an hour later.
    vi.setSystemTime(Date.now() + 3600_000);
    for (const route of Object.keys(MERCHANT_LIMITS) as MerchantRouteId[]) {
      expect((await rl.consume(route, "cred_a")).allowed, route).toBe(true);
    }
  });

  it("counts each credential separately", async () => {
    const rl = await memoryLimiter();
    expect((await rl.consume("GET /ping", "cred_a")).allowed).toBe(true);
    expect((await rl.consume("GET /ping", "cred_a")).allowed).toBe(false);
    expect((await rl.consume("GET /ping", "cred_b")).allowed).toBe(true);
    // ...and each route separately.
    expect((await rl.consume("GET /check_phone_number", "cred_a")).allowed).toBe(true);
  });

  it("shares the product quota between the product list and search, and not with the other product routes", async () => {
    const rl = await memoryLimiter(smallQuota(5));
    for (let i = 0; i < 3; i++) expect((await rl.consume("GET /products", "cred_a")).allowed).toBe(true);
    const fifth = await (async () => {
      await rl.consume("GET /products/search", "cred_a");
      return rl.consume("GET /products/search", "cred_a");
    })();
    expect(fifth.allowed).toBe(true);
    // One left of the endpoint's 60 would be 55; of the quota, none: the quota is reported.
    expect(fifth.headers).toMatchObject({ "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(nowSec() + 3600) });
    expect(fifth.headers["RateLimit-Policy"]).toBe('"get-products-search";q=60;w=60, "products-hourly";q=5;w=3600');
    expect(fifth.headers.RateLimit).toBe('"get-products-search";r=58;t=60, "products-hourly";r=0;t=3600');

    for (const route of ["GET /products", "GET /products/search"] as const) {
      const refused = await rl.consume(route, "cred_a");
      expect(refused.allowed).toBe(false);
      expect(refused.refusedBy).toEqual({ name: "products-hourly", points: 5, durationSec: 3600 });
      expect(refused.headers["Retry-After"]).toBe("3600");
    }
    // The detail and eSIM routes have only their own limit.
    expect((await rl.consume("GET /products/{id}", "cred_a")).allowed).toBe(true);
    expect((await rl.consume("GET /products/esims", "cred_a")).allowed).toBe(true);
    // Another credential has its own quota.
    expect((await rl.consume("GET /products", "cred_b")).allowed).toBe(true);
  });

  it("refuses the request after the quota's 1000 in an hour over the product list and search, each kept under its own limit", async () => {
    const rl = await memoryLimiter();
    expect(PRODUCT_QUOTA.points % 100).toBe(0);
    // 50 a minute on each of the two routes: under their 60 a minute, 100 a minute of the quota.
    for (let minute = 0; minute < PRODUCT_QUOTA.points / 100; minute++) {
      for (let i = 0; i < 50; i++) {
        for (const route of PRODUCT_QUOTA.routes) expect((await rl.consume(route, "cred_a")).allowed, `${route}, minute ${minute}`).toBe(true);
      }
      vi.setSystemTime(Date.now() + 60_000);
    }
    for (const route of PRODUCT_QUOTA.routes) {
      const refused = await rl.consume(route, "cred_a");
      expect(refused.refusedBy, route).toEqual({ name: PRODUCT_QUOTA.name, points: PRODUCT_QUOTA.points, durationSec: PRODUCT_QUOTA.durationSec });
    }
    expect((await rl.consume("GET /products/{id}", "cred_a")).allowed).toBe(true);
  });

  it("does not charge an endpoint for a request the quota refused, nor the quota for one the endpoint refused", async () => {
    const rl = await memoryLimiter({
      ...DEFAULT_POLICIES,
      merchant: { ...DEFAULT_POLICIES.merchant, "GET /products": { points: 3, durationSec: 60 } },
      productQuota: { ...DEFAULT_POLICIES.productQuota, points: 4 },
    });
    for (let i = 0; i < 3; i++) expect((await rl.consume("GET /products", "cred_a")).allowed).toBe(true);
    // The endpoint's 3 are used: refused, and the quota keeps its last request.
    const refused = await rl.consume("GET /products", "cred_a");
    expect(refused.refusedBy?.name).toBe("get-products");
    expect(refused.headers.RateLimit).toBe('"get-products";r=0;t=60, "products-hourly";r=1;t=3600');
    expect((await rl.consume("GET /products/search", "cred_a")).allowed).toBe(true);
    // Now the quota is used up: search is refused and keeps its endpoint budget.
    const quotaRefused = await rl.consume("GET /products/search", "cred_a");
    expect(quotaRefused.refusedBy?.name).toBe("products-hourly");
    expect(quotaRefused.headers.RateLimit).toBe('"get-products-search";r=59;t=60, "products-hourly";r=0;t=3600');
  });

  it("refuses a rule that is not whole and positive when it is made, not at the first request", async () => {
    const bad = (points: number, durationSec: number): RateLimitPolicies => ({
      ...DEFAULT_POLICIES,
      merchant: { ...DEFAULT_POLICIES.merchant, "GET /ping": { points, durationSec } },
    });
    await expect(createRateLimiter({ kind: "memory" }, bad(0, 3))).rejects.toThrow(/get-ping needs whole, positive points/);
    await expect(createRateLimiter({ kind: "memory" }, bad(1, 0.5))).rejects.toThrow(/get-ping/);
  });

  it("refuses an unknown route id instead of letting it through unlimited", async () => {
    const rl = await memoryLimiter();
    await expect(rl.consume("GET /nowhere" as MerchantRouteId, "cred_a")).rejects.toThrow(/No rate limit for the route GET \/nowhere/);
  });
});

describe("rolling windows", () => {
  it("count each request for exactly the window's length after it", async () => {
    // 10 a minute: 10 at 0 s, then none until 60 s; 5 more at 30 s would be let through at 60 s by a fixed window.
    const rl = await memoryLimiter();
    const start = Date.now();
    for (let i = 0; i < 5; i++) expect((await rl.consume("GET /check_phone_number", "cred_roll")).allowed).toBe(true);
    vi.setSystemTime(start + 30_000);
    for (let i = 0; i < 5; i++) expect((await rl.consume("GET /check_phone_number", "cred_roll")).allowed).toBe(true);
    vi.setSystemTime(start + 59_999);
    const refused = await rl.consume("GET /check_phone_number", "cred_roll");
    expect(refused.retryAfterSec).toBe(1);
    expect(refused.headers["X-RateLimit-Reset"]).toBe(String(Math.ceil((start + 60_000) / 1000)));
    // At 60 s the first five leave the window: five places, not ten.
    vi.setSystemTime(start + 60_000);
    for (let i = 0; i < 5; i++) expect((await rl.consume("GET /check_phone_number", "cred_roll")).allowed, `request ${i}`).toBe(true);
    const again = await rl.consume("GET /check_phone_number", "cred_roll");
    expect(again.allowed).toBe(false);
    expect(again.retryAfterSec).toBe(30);
  });

  it("hold on a random schedule", async () => {
    const { policies } = scheduleRules("products-schedule-memory");
    const rl = await memoryLimiter(policies);
    for (const seed of [1, 2, 3, 4, 5]) await checkRandomSchedule([rl], "products-schedule-memory", seed);
  });

  it("let exactly the limit through at one instant", async () => {
    await checkSimultaneous([await memoryLimiter()], "cred_burst");
  });

  it("log a raised limit in coarser steps, rounded up, and still never let more through", async () => {
    const rl = await memoryLimiter({ ...DEFAULT_POLICIES, merchant: { ...DEFAULT_POLICIES.merchant, "GET /ping": { points: 3000, durationSec: 3 } } });
    const start = Date.now() + 1; // not on a 3 ms step
    vi.setSystemTime(start);
    for (let i = 0; i < 3000; i++) expect((await rl.consume("GET /ping", "cred_steps")).allowed).toBe(true);
    expect((await rl.consume("GET /ping", "cred_steps")).allowed).toBe(false);
    vi.setSystemTime(start + 3000);
    // Logged at the next 3 ms step: still counted for up to 3 ms more.
    expect((await rl.consume("GET /ping", "cred_steps")).allowed).toBe(false);
    vi.setSystemTime(start + 3003);
    expect((await rl.consume("GET /ping", "cred_steps")).allowed).toBe(true);
  });
});

describe("rate limits of the /x402 API", () => {
  const small: RateLimitPolicies = {
    ...DEFAULT_POLICIES,
    x402: { ip: { name: "x402-ip", points: 4, durationSec: 60 }, wallet: { name: "x402-wallet", points: 2, durationSec: 60 } },
  };
  const wallet = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";

  it("counts per IP and per wallet, and refuses when either is used up", async () => {
    const rl = await memoryLimiter(small);
    const first = await rl.consumeX402({ ip: "203.0.113.7", wallet });
    expect(first.allowed).toBe(true);
    expect(first.headers["RateLimit-Policy"]).toBe('"x402-ip";q=4;w=60, "x402-wallet";q=2;w=60');
    // The same wallet spelled in lower case, from another IP: the same wallet budget.
    expect((await rl.consumeX402({ ip: "198.51.100.1", wallet: wallet.toLowerCase() })).allowed).toBe(true);
    const third = await rl.consumeX402({ ip: "203.0.113.7", wallet });
    expect(third.allowed).toBe(false);
    expect(third.refusedBy?.name).toBe("x402-wallet");
    // The IP still has room for calls without that wallet (it got its point back on the refusal).
    expect((await rl.consumeX402({ ip: "203.0.113.7" })).headers["X-RateLimit-Remaining"]).toBe("2");
    expect((await rl.consumeX402({ ip: "203.0.113.7" })).headers["X-RateLimit-Remaining"]).toBe("1");
    expect((await rl.consumeX402({ ip: "203.0.113.7" })).headers["X-RateLimit-Remaining"]).toBe("0");
    const ipRefused = await rl.consumeX402({ ip: "203.0.113.7", wallet: "0x0000000000000000000000000000000000000001" });
    expect(ipRefused.refusedBy?.name).toBe("x402-ip");
  });

  it("counts an IPv6 client by its /64", async () => {
    const rl = await memoryLimiter(small);
    for (const ip of ["2001:db8:1:2::1", "2001:db8:1:2:aaaa::5", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::9"]) {
      expect((await rl.consumeX402({ ip })).allowed, ip).toBe(true);
    }
    expect((await rl.consumeX402({ ip: "2001:db8:1:2::77" })).allowed).toBe(false);
    expect((await rl.consumeX402({ ip: "2001:db8:1:3::1" })).allowed).toBe(true);
  });

  it("lets a request with neither IP nor wallet through without headers", async () => {
    const rl = await memoryLimiter(small);
    expect(await rl.consumeX402({})).toEqual({ allowed: true, headers: {}, refusedBy: undefined, retryAfterSec: undefined });
  });

  it("normalises subjects", () => {
    expect(ipSubject(" 192.0.2.1 ")).toBe("192.0.2.1");
    expect(ipSubject("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(ipSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipSubject("::1")).toBe("0:0:0:0::/64");
    expect(ipSubject("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(ipSubject("2001:DB8:0:0:1::1")).toBe("2001:db8:0:0::/64");
    expect(ipSubject("unknown")).toBe("unknown");
    expect(walletSubject("0xAbCdEf0123456789aBcDeF0123456789AbCdEf01")).toBe("0xabcdef0123456789abcdef0123456789abcdef01");
    expect(walletSubject("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")).toBe("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
  });

  it("names an address's network: an IPv6 /48, an IPv4 /24", () => {
    // Every /64 of a /48, however it is written, is one network; the next /48 is another.
    for (const ip of ["2001:db8:1:2::1", "2001:DB8:1:ffff::9", "2001:0db8:0001:0000:0000:0000:0000:0001", "2001:db8:1::", "2001:db8:1:0:0:0:1.2.3.4"]) {
      expect(ipNetwork(ip), ip).toBe("2001:db8:1::/48");
    }
    expect(ipNetwork("2001:db8:2:2::1")).toBe("2001:db8:2::/48");
    expect(ipNetwork("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(ipNetwork("fe80::1%eth0")).toBe("fe80:0:0::/48");
    expect(ipNetwork("::1")).toBe("0:0:0::/48");
    expect(ipNetwork(" 203.0.113.9 ")).toBe("203.0.113.0/24");
    expect(ipNetwork("203.0.113.250")).toBe("203.0.113.0/24");
    expect(ipNetwork("::ffff:203.0.113.9")).toBe("203.0.113.0/24");
    expect(ipNetwork("203.0.114.9")).toBe("203.0.114.0/24");
    expect(ipNetwork("203.0.11.9")).toBe("203.0.11.0/24");
    expect(ipNetwork("unknown")).toBeNull();
    expect(ipNetwork("203.0.113")).toBeNull();
  });
});

describe("failed sign-ins to the dashboard", () => {
  const small: RateLimitPolicies = {
    ...DEFAULT_POLICIES,
    dashboardSignIn: {
      ip: { name: "dashboard-sign-in-ip", points: 3, durationSec: 900 },
      credential: { name: "dashboard-sign-in-credential", points: 2, durationSec: 900 },
    },
  };

  it("counts attempts per IP and per credential id; a successful one gives its point back", async () => {
    const rl = await memoryLimiter(small);
    const attempt = { ip: "203.0.113.7", credential: "ak_one" };
    expect((await rl.consumeSignIn(attempt)).allowed).toBe(true);
    await rl.forgiveSignIn(attempt); // it succeeded
    expect((await rl.consumeSignIn(attempt)).allowed).toBe(true);
    expect((await rl.consumeSignIn(attempt)).allowed).toBe(true);
    const refused = await rl.consumeSignIn(attempt);
    expect(refused).toMatchObject({ allowed: false, refusedBy: { name: "dashboard-sign-in-credential" }, retryAfterSec: 900 });
    // Another id from the same address: the IP has one attempt left (the refusal used none).
    expect((await rl.consumeSignIn({ ip: "203.0.113.7", credential: "ak_two" })).allowed).toBe(true);
    expect((await rl.consumeSignIn({ ip: "203.0.113.7", credential: "ak_three" })).refusedBy?.name).toBe("dashboard-sign-in-ip");
    // The first id from elsewhere: still refused; an unknown address (loopback) counts only the id.
    expect((await rl.consumeSignIn({ ip: "198.51.100.1", credential: "ak_one" })).allowed).toBe(false);
    expect((await rl.consumeSignIn({ credential: "ak_four" })).allowed).toBe(true);
    // After the window, room again.
    vi.setSystemTime(Date.now() + 901_000);
    expect((await rl.consumeSignIn(attempt)).allowed).toBe(true);
  });
});

describe("the 429 of the merchant API", () => {
  it("is the API's error envelope with the rate-limit headers and Retry-After", async () => {
    const rl = await memoryLimiter();
    await rl.consume("GET /ping", "cred_a");
    const decision = await rl.consume("GET /ping", "cred_a");
    const res = rateLimitedResponse("/ping", decision);
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("x-ratelimit-limit")).toBe("1");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-reset")).toBe(String(nowSec() + 3));
    expect(res.headers.get("ratelimit")).toBe('"get-ping";r=0;t=3');
    expect(await res.json()).toEqual({
      meta: { _endpoint: "/ping" },
      error_code: "too_many_requests",
      message: "Rate limit exceeded: 1 request per 3 seconds. Retry after 3 seconds.",
    });
  });

  it("names the quota that refused", async () => {
    const rl = await memoryLimiter(smallQuota(1));
    await rl.consume("GET /products", "cred_a");
    const res = rateLimitedResponse("/products/search", await rl.consume("GET /products/search", "cred_a"));
    expect(((await res.json()) as { message: string }).message).toBe("Rate limit exceeded: 1 request per hour. Retry after 3600 seconds.");
  });

  it("is only made from a refusal", () => {
    expect(() => rateLimitedResponse("/ping", { allowed: true, headers: {}, refusedBy: undefined, retryAfterSec: undefined })).toThrow();
  });
});

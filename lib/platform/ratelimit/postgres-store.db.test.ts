import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { createRateLimiter, type RateLimiter } from "./limiter";
import { DEFAULT_POLICIES, type RateLimitPolicies } from "./policies";
import { checkRandomSchedule, checkSimultaneous, scheduleRules } from "@/test/rolling-window";
import { createTable, RATE_LIMIT_TABLE, type PgQueryable } from "./store";

/**
 * Two "servers" on one database: on PostgreSQL two separate pools, as two processes would have; on PGlite (one
 * connection by nature) the same instance behind the node-postgres query shape.
 */
let nodeA: PgQueryable;
let nodeB: PgQueryable;
let close: () => Promise<void>;

beforeAll(async () => {
  if (testDriver === "postgres") {
    const database: Database = await openTestDatabase();
    const url = (database.pool as unknown as { options: pg.PoolConfig }).options.connectionString;
    const second = new pg.Pool({ connectionString: url, max: 4 });
    nodeA = database.pool!;
    nodeB = second;
    close = async () => {
      await second.end();
      await database.close();
    };
  } else {
    const pglite = await PGlite.create();
    const adapter: PgQueryable = {
      async query({ text, values }) {
        const result = await pglite.query(text, values);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      },
    };
    nodeA = adapter;
    nodeB = adapter;
    close = () => pglite.close();
  }
});
afterAll(() => close?.());

const limiters: RateLimiter[] = [];
async function limiterOn(client: PgQueryable, policies?: RateLimitPolicies) {
  const limiter = await createRateLimiter({ kind: "postgres", client }, policies);
  limiters.push(limiter);
  return limiter;
}
afterEach(async () => {
  vi.useRealTimers();
  for (const l of limiters.splice(0)) await l.close();
});

/** `client`, with the text of every statement it is sent, and the names of those sent as named prepared statements. */
function counting(client: PgQueryable): { statements: string[]; named: string[]; counted: PgQueryable } {
  const statements: string[] = [];
  const named: string[] = [];
  return {
    statements,
    named,
    counted: {
      query: (q) => {
        statements.push(q.text);
        if (q.name) named.push(q.name);
        return client.query(q);
      },
    },
  };
}

let credentials = 0;
/** A credential no other test has counted for (the table is shared by the tests of this file). */
const freshCredential = () => `cred_${testDriver}_${++credentials}`;

describe(`rate limits on ${testDriver}, shared by several servers`, () => {
  it("creates its table once, even when servers start together", async () => {
    // Eight at once, on separate connections: a bare CREATE TABLE IF NOT EXISTS fails here now and then (23505 on pg_type).
    await Promise.all(Array.from({ length: 8 }, (_, i) => createTable(i % 2 ? nodeA : nodeB, "rate_limits_race")));
    await Promise.all([limiterOn(nodeA), limiterOn(nodeB)]);
    const { rows } = await nodeA.query({
      text: "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
      values: [RATE_LIMIT_TABLE],
    });
    expect(rows).toEqual([
      { column_name: "key", data_type: "character varying" },
      { column_name: "at", data_type: "ARRAY" },
      { column_name: "n", data_type: "ARRAY" },
      { column_name: "expire", data_type: "bigint" },
    ]);
  });

  it("counts one credential's requests across both servers", async () => {
    const [a, b] = [await limiterOn(nodeA), await limiterOn(nodeB)];
    expect(a.storeKind).toBe("postgres");
    const cred = freshCredential();
    // GET /check_phone_number: 10 a minute, spent alternately on each server.
    for (let i = 1; i <= 10; i++) {
      const d = await (i % 2 ? a : b).consume("GET /check_phone_number", cred);
      expect(d.allowed, `request ${i}`).toBe(true);
      expect(d.headers["X-RateLimit-Remaining"]).toBe(String(10 - i));
    }
    const refused = await b.consume("GET /check_phone_number", cred);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSec).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(60);
    expect((await a.consume("GET /check_phone_number", cred)).allowed).toBe(false);
    // Another credential is not affected.
    expect((await a.consume("GET /check_phone_number", freshCredential())).allowed).toBe(true);
  });

  it("lets ping through once per 3 seconds on either server", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const [a, b] = [await limiterOn(nodeA), await limiterOn(nodeB)];
    const cred = freshCredential();
    const first = await a.consume("GET /ping", cred);
    expect(first.allowed).toBe(true);
    expect(first.headers).toMatchObject({
      "X-RateLimit-Limit": "1",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + 3),
    });

    vi.setSystemTime(Date.now() + 2000);
    const second = await b.consume("GET /ping", cred);
    expect(second.allowed).toBe(false);
    expect(second.headers["Retry-After"]).toBe("1");

    vi.setSystemTime(Date.now() + 1000);
    expect((await b.consume("GET /ping", cred)).allowed).toBe(true);
  });

  it("shares the product quota across the product list and search on both servers", async () => {
    const policies: RateLimitPolicies = { ...DEFAULT_POLICIES, productQuota: { ...DEFAULT_POLICIES.productQuota, name: "products-hourly-test", points: 4 } };
    const [a, b] = [await limiterOn(nodeA, policies), await limiterOn(nodeB, policies)];
    const cred = freshCredential();
    expect((await a.consume("GET /products", cred)).allowed).toBe(true);
    expect((await b.consume("GET /products/search", cred)).allowed).toBe(true);
    expect((await a.consume("GET /products/search", cred)).allowed).toBe(true);
    const last = await b.consume("GET /products", cred);
    expect(last.allowed).toBe(true);
    expect(last.headers).toMatchObject({ "X-RateLimit-Limit": "4", "X-RateLimit-Remaining": "0" });
    const refused = await a.consume("GET /products", cred);
    expect(refused.refusedBy?.name).toBe("products-hourly-test");
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(3590);
    // The refused request was not charged to GET /products: 2 of its 60 used.
    expect(refused.headers.RateLimit).toMatch(/^"get-products";r=58;t=\d+, "products-hourly-test";r=0;t=\d+$/);
  });

  it("writes all of a request's counters in one statement, never a named one", async () => {
    const { statements, named, counted } = counting(nodeA);
    const policies: RateLimitPolicies = { ...DEFAULT_POLICIES, productQuota: { ...DEFAULT_POLICIES.productQuota, name: "products-one-statement", points: 2 } };
    const rl = await limiterOn(counted, policies);
    const other = await limiterOn(nodeB, policies);
    const cred = freshCredential();
    statements.length = 0;
    // The product list counts on two policies (the route's and the product quota): one round trip.
    const first = await rl.consume("GET /products", cred);
    expect(statements).toHaveLength(1);
    expect(first.headers.RateLimit).toMatch(/^"get-products";r=59;t=\d+, "products-one-statement";r=1;t=\d+$/);
    // Another server continues the same logs.
    expect((await other.consume("GET /products/search", cred)).headers.RateLimit).toMatch(/"products-one-statement";r=0;/);
    const refused = await rl.consume("GET /products", cred);
    expect(refused.refusedBy?.name).toBe("products-one-statement");
    // The route's point was given back: 1 of its 60 used.
    expect(refused.headers.RateLimit).toMatch(/^"get-products";r=59;t=\d+, "products-one-statement";r=0;t=\d+$/);

    // An /x402 request counts its IP and its wallet in one statement too.
    statements.length = 0;
    const wallet = `0x${cred.replace(/\D/g, "").padStart(40, "7")}`;
    expect((await rl.consumeX402({ ip: "203.0.113.9", wallet })).allowed).toBe(true);
    expect(statements).toHaveLength(1);
    // Counting and giving back alike: a named statement would live on one server connection, and a transaction
    // pooler (PgBouncer, where DATABASE_URL may point) hands the next query to another.
    expect(named).toEqual([]);
  });

  it("counts requests that arrive together in a few statements, each exactly once, as if one after the other", async () => {
    const { statements, counted } = counting(nodeA);
    const policies: RateLimitPolicies = { ...DEFAULT_POLICIES, productQuota: { ...DEFAULT_POLICIES.productQuota, name: "products-together", points: 15 } };
    const rl = await limiterOn(counted, policies);
    const other = await limiterOn(nodeB, policies);
    const creds = [freshCredential(), freshCredential()];
    statements.length = 0;
    // 40 requests at once, of two credentials in turn: 20 each against a quota of 15.
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => rl.consume("GET /products", creds[i % 2]!)));
    const takes = statements.filter((t) => t.includes("_take_many"));
    expect(takes.length).toBeGreaterThanOrEqual(1);
    expect(takes.length).toBeLessThanOrEqual(3);
    for (const [c, cred] of creds.entries()) {
      const mine = decisions.filter((_, i) => i % 2 === c);
      // In the order they asked: the first 15 through, with 14, 13… 0 left, then refusals.
      expect(mine.map((d) => d.allowed)).toEqual([...Array<boolean>(15).fill(true), ...Array<boolean>(5).fill(false)]);
      expect(mine.slice(0, 15).map((d) => d.headers["X-RateLimit-Remaining"])).toEqual(Array.from({ length: 15 }, (_, i) => String(14 - i)));
      // The other server sees the quota spent.
      expect((await other.consume("GET /products", cred)).refusedBy?.name).toBe("products-together");
    }
  });

  it("commits a request's counters without waiting for the disk (that transaction alone)", async () => {
    await limiterOn(nodeA);
    // The function runs to its end before its rows are read: the setting seen is the one its transaction commits with.
    const { rows } = await nodeA.query({
      text: `SELECT current_setting('synchronous_commit') AS setting FROM "${RATE_LIMIT_TABLE}_take"($1::varchar[], '{5}', '{60000}', '{1000}', $2::bigint)`,
      values: [[`sync:${freshCredential()}`], Date.now()],
    });
    expect(rows).toEqual([{ setting: "off" }]);
    // The next statement's transaction is back to the server's setting.
    expect((await nodeA.query({ text: "SELECT current_setting('synchronous_commit') AS setting" })).rows).toEqual([{ setting: "on" }]);
  });

  it("rolls each window: a request counts for exactly the window's length after it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const policies: RateLimitPolicies = {
      ...DEFAULT_POLICIES,
      productQuota: { ...DEFAULT_POLICIES.productQuota, name: "products-window-test", points: 2, durationSec: 10 },
    };
    const [a, b] = [await limiterOn(nodeA, policies), await limiterOn(nodeB, policies)];
    const cred = freshCredential();
    const start = Date.now();
    expect((await a.consume("GET /products", cred)).allowed).toBe(true);
    vi.setSystemTime(start + 6000);
    expect((await b.consume("GET /products", cred)).allowed).toBe(true);
    // A fixed window opened by the first request would let a request through at 10 s; the rolling one too, as the
    // first request leaves it, but not the next: the second still counts until 16 s.
    vi.setSystemTime(start + 9999);
    const refused = await a.consume("GET /products", cred);
    expect(refused.refusedBy?.name).toBe("products-window-test");
    expect(refused.headers["X-RateLimit-Reset"]).toBe(String(Math.ceil((start + 10_000) / 1000)));
    vi.setSystemTime(start + 10_000);
    const third = await b.consume("GET /products", cred);
    expect(third.allowed).toBe(true);
    expect(third.headers["X-RateLimit-Reset"]).toBe(String(Math.ceil((start + 16_000) / 1000)));
    vi.setSystemTime(start + 15_999);
    expect((await a.consume("GET /products", cred)).allowed).toBe(false);
    vi.setSystemTime(start + 16_000);
    expect((await a.consume("GET /products", cred)).allowed).toBe(true);
  });

  it("holds the rolling-window property on a random schedule across two servers", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { policies } = scheduleRules("products-schedule-pg");
    const servers = [await limiterOn(nodeA, policies), await limiterOn(nodeB, policies)];
    for (const seed of [1, 2]) await checkRandomSchedule(servers, "products-schedule-pg", seed);
  });

  it("lets exactly the limit through when two servers are asked at the same instant", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await checkSimultaneous([await limiterOn(nodeA), await limiterOn(nodeB)], freshCredential());
  });

  it("keeps counting in memory when the database cannot be reached", async () => {
    let down = false;
    const flaky: PgQueryable = {
      query: (q) => (down ? Promise.reject(new Error("connection refused")) : nodeA.query(q)),
    };
    const rl = await limiterOn(flaky);
    const policies: RateLimitPolicies = { ...DEFAULT_POLICIES, productQuota: { ...DEFAULT_POLICIES.productQuota, name: "products-insured", points: 1 } };
    const quota = await limiterOn(flaky, policies);
    const cred = freshCredential();
    down = true;
    expect((await rl.consume("GET /ping", cred)).allowed).toBe(true);
    expect((await rl.consume("GET /ping", cred)).allowed).toBe(false);
    // Two counters of one request, when their statement fails, are each counted on their own limiter's insurance.
    expect((await quota.consume("GET /products", cred)).allowed).toBe(true);
    expect((await quota.consume("GET /products", cred)).refusedBy?.name).toBe("products-insured");
  });
});

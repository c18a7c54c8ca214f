import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter, type RateLimiter } from "./limiter";
import { DEFAULT_POLICIES, type RateLimitPolicies } from "./policies";
import { checkRandomSchedule, checkSimultaneous, scheduleRules } from "@/test/rolling-window";
import { connectRedis } from "./store";

/** Debian's redis-server, when installed (`apt-get install redis-server`; CI installs it). Without it these tests are skipped. */
const redisServer = (process.env.PATH ?? "")
  .split(path.delimiter)
  .map((dir) => path.join(dir, "redis-server"))
  .find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

let server: ChildProcess | undefined;
let url = "";
const clients: Redis[] = [];

beforeAll(async () => {
  if (!redisServer) return;
  const port = await freePort();
  // In memory only, on loopback, ended with the test run.
  server = spawn(redisServer, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  url = `redis://127.0.0.1:${port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
  server?.kill();
});

/** A server's connection, as `getRateLimiter` makes it, once ready (redis-server may still be starting). */
async function node(): Promise<Redis> {
  for (let attempt = 0; ; attempt++) {
    const client = await connectRedis(url);
    clients.push(client);
    const ready = await new Promise<boolean>((resolve) => {
      client.once("ready", () => resolve(true));
      setTimeout(() => resolve(false), 500);
    });
    if (ready) return client;
    client.disconnect();
    if (attempt >= 20) throw new Error(`redis-server at ${url} did not come up`);
  }
}

const limiters: RateLimiter[] = [];
async function limiterOn(client: Redis, policies?: RateLimitPolicies) {
  const limiter = await createRateLimiter({ kind: "redis", client }, policies);
  limiters.push(limiter);
  return limiter;
}
afterEach(async () => {
  vi.useRealTimers();
  for (const l of limiters.splice(0)) await l.close();
});

let credentials = 0;
const freshCredential = () => `cred_redis_${Date.now()}_${++credentials}`;

// Skipped only on a machine without redis-server on PATH (.ci/run installs it): the store is tried on a real server.
describe.skipIf(!redisServer)("rate limits on Redis, shared by several servers", () => {
  it("counts one credential's requests across both servers", async () => {
    const [a, b] = [await limiterOn(await node()), await limiterOn(await node())];
    expect(a.storeKind).toBe("redis");
    const cred = freshCredential();
    for (let i = 1; i <= 10; i++) {
      const d = await (i % 2 ? a : b).consume("GET /check_phone_number", cred);
      expect(d.allowed, `request ${i}`).toBe(true);
      expect(d.headers["X-RateLimit-Remaining"]).toBe(String(10 - i));
    }
    const refused = await a.consume("GET /check_phone_number", cred);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSec).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(60);
    expect((await b.consume("GET /check_phone_number", freshCredential())).allowed).toBe(true);
  });

  it("lets ping through once per 3 seconds", async () => {
    const [a, b] = [await limiterOn(await node()), await limiterOn(await node())];
    const cred = freshCredential();
    expect((await a.consume("GET /ping", cred)).headers).toMatchObject({ "X-RateLimit-Limit": "1", RateLimit: '"get-ping";r=0;t=3' });
    const refused = await b.consume("GET /ping", cred);
    expect(refused.allowed).toBe(false);
    expect(refused.headers["Retry-After"]).toMatch(/^[123]$/);
  });

  it("shares the product quota across the product list and search", async () => {
    const policies: RateLimitPolicies = { ...DEFAULT_POLICIES, productQuota: { ...DEFAULT_POLICIES.productQuota, points: 2 } };
    const [a, b] = [await limiterOn(await node(), policies), await limiterOn(await node(), policies)];
    const cred = freshCredential();
    expect((await a.consume("GET /products", cred)).allowed).toBe(true);
    expect((await b.consume("GET /products/search", cred)).allowed).toBe(true);
    const refused = await a.consume("GET /products/search", cred);
    expect(refused.refusedBy?.name).toBe("products-hourly");
    expect(refused.headers.RateLimit).toMatch(/^"get-products-search";r=59;t=60, "products-hourly";r=0;t=\d+$/);
  });

  it("holds the rolling-window property on a random schedule across two servers", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { policies } = scheduleRules("products-schedule-redis");
    const servers = [await limiterOn(await node(), policies), await limiterOn(await node(), policies)];
    for (const seed of [1, 2, 3]) await checkRandomSchedule(servers, "products-schedule-redis", seed);
  });

  it("lets exactly the limit through when two servers are asked at the same instant", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await checkSimultaneous([await limiterOn(await node()), await limiterOn(await node())], freshCredential());
  });

  it("gives a sign-in's point back", async () => {
    const rl = await limiterOn(await node());
    const attempt = { credential: freshCredential() };
    for (let i = 0; i < 12; i++) {
      expect((await rl.consumeSignIn(attempt)).allowed, `attempt ${i}`).toBe(true);
      await rl.forgiveSignIn(attempt);
    }
  });

  it("keeps counting in memory while Redis cannot be reached", async () => {
    const client = await node();
    const rl = await limiterOn(client);
    client.disconnect();
    const cred = freshCredential();
    expect((await rl.consume("GET /ping", cred)).allowed).toBe(true);
    expect((await rl.consume("GET /ping", cred)).allowed).toBe(false);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

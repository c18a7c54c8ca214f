import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as cronTick } from "@/app/api/cron/tick/route";
import { GET as health } from "@/app/api/health/route";
import { config } from "@/lib/platform/config";
import { processTestDatabase, testDriver } from "@/test/db";
import { captureLog } from "@/test/log";
import { READINESS_TTL_MS, recentReadiness } from "./health";

// A testnet shop whose every RPC URL carries the operator's key in its path, as hosted RPC providers issue them, and
// whose provider refuses everything (429), the exchange-rate feed's URL as well: the key is in no health answer, no
// cron report and no log line; and a burst of anonymous health checks makes one round of RPC reads.

const KEY = "SECRETKEY0123456789abcdef";
const ADMIN_TOKEN = "adm_health_test_token_0123456789abcdef";
const CRON_SECRET = "health-test-cron-secret-0123456789";

vi.hoisted(() => {
  Object.assign(process.env, {
    NETWORK_MODE: "testnet",
    PUBLIC_ORIGIN: "https://shop.example",
    SESSION_SECRET: "health-test-session-secret-0123456789abcdef",
    ADMIN_TOKEN: "adm_health_test_token_0123456789abcdef",
    CRON_SECRET: "health-test-cron-secret-0123456789",
    PAY_TO_EVM: "0x000000000000000000000000000000000000dEaD",
    PAY_TO_SOLANA: "4dAcXFjpfQ6ScrzvEMj9hUGbjDvNSQtkDGjpyWRsc9gg",
    FACILITATOR_EVM_PRIVATE_KEY: `0x${"11".repeat(32)}`,
    FACILITATOR_SOLANA_PRIVATE_KEY: "3QWJuv3qWQKPSwVCaYnyRshGpUarLiBJzcB5FRqrYCtT51qtbkrPeH97jR1dueaXmZviMg2PTMxgsvpvLqF42e68",
  });
});

processTestDatabase(() => {});

/** The provider: every request counted, every one refused as over quota. */
let provider: http.Server;
let reads = 0;
let log: ReturnType<typeof captureLog>;

beforeAll(async () => {
  provider = http.createServer((req, res) => {
    reads++;
    req.resume().on("end", () => {
      res.writeHead(429, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: 429, message: "Your app has exceeded its compute units per second capacity" } }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v2/${KEY}`;
  for (const name of ["BASE", "ARBITRUM", "POLYGON", "SOLANA", "ETHEREUM"]) process.env[`RPC_URL_${name}`] = url;
  // The exchange-rate feed too (its failure is logged, with its URL).
  process.env.FX_RATES_URL = `${url}/rates.xml`;
  // Read after the URLs are set (the configuration is read once, on first use).
  expect(config().rpcUrls).toEqual({ base: url, arbitrum: url, polygon: url, solana: url, ethereum: url });
  log = captureLog();
});
afterAll(async () => {
  log?.restore();
  await new Promise((resolve) => provider?.close(resolve));
});

const ask = async (headers: Record<string, string> = {}) => {
  const res = await health(new Request("https://shop.example/api/health?ready=1", { headers }));
  return { status: res.status, text: await res.text() };
};

describe(`readiness with RPC keys in the URLs, on ${testDriver}`, () => {
  it("answers anyone which checks failed, by name only; a burst of calls makes one round of RPC reads", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask()));
    const round = reads;
    expect(round).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) answers.push(await ask());
    expect(reads).toBe(round);

    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.text).not.toContain(KEY);
    }
    const body = JSON.parse(answers[0]!.text) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["checks", "mode", "problems", "status", "uptime_s"]);
    expect(body).toMatchObject({ status: "unready", mode: "testnet", checks: { database: { ok: true }, "chain eip155:84532": { ok: false } } });
    expect(body.problems).toEqual(expect.arrayContaining(["chain eip155:84532", "chain eip155:421614", "chain eip155:80002"]));
    for (const check of Object.values(body.checks as Record<string, object>)) expect(Object.keys(check)).toEqual(["ok"]);

    // Past the window, the next caller makes the next round.
    await recentReadiness(Date.now() + READINESS_TTL_MS);
    expect(reads).toBeGreaterThan(round);
  });

  it("gives the operator the detail with the admin token, the key still cut from it, and refuses a wrong token", async () => {
    const admin = await ask({ authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(admin.status).toBe(503);
    expect(admin.text).not.toContain(KEY);
    const body = JSON.parse(admin.text) as { checks: Record<string, { detail: string }>; problems: string[]; warnings: string[] };
    // What went wrong, and where: the provider's host, its answer.
    expect(body.checks["chain eip155:84532"]!.detail).toContain("http://127.0.0.1");
    expect(body.checks["chain eip155:84532"]!.detail).toContain("429");
    expect(body.warnings.some((w) => w.startsWith("gas wallet ") && w.includes("balance unknown"))).toBe(true);
    // Sepolia, paid by address only: a warning of its own (its node, the gas wallet that flushes there), not unreadiness.
    expect(body.warnings.some((w) => w.startsWith("payments by address on Sepolia") && w.includes("429"))).toBe(true);
    expect(body.warnings.some((w) => w.startsWith("gas wallet ") && w.includes("eip155:11155111"))).toBe(true);
    expect(body.problems.some((p) => p.includes("11155111"))).toBe(false);

    expect((await ask({ authorization: "Bearer adm_not_the_token_0123456789abcdef" })).status).toBe(401);
  });

  it("keeps the key out of the cron report and of every log line", async () => {
    const res = await cronTick(new Request("https://shop.example/api/cron/tick", { headers: { authorization: `Bearer ${CRON_SECRET}` } }));
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(KEY);
    // The feed's failure is logged, naming its host only.
    expect(log.lines.find((l) => l.msg === "exchange rates could not be refreshed")).toMatchObject({ url: "http://127.0.0.1" });
    for (const line of log.lines) expect(JSON.stringify(line)).not.toContain(KEY);
  });
});

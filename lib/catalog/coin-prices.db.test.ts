import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as confirmRoute } from "@/app/api/admin/prices/confirm/route";
import type { Database } from "@/lib/platform/db";
import { coinPrices } from "@/lib/platform/db/schema";
import { openTestDatabase, useAsProcessDatabase } from "@/test/db";
import { callRoute } from "@/test/merchant-api";
import {
  coinPrice,
  confirmCoinPrice,
  DEVNET_ETH_USD,
  heldCoinPrices,
  heldCoinPriceWarning,
  parseSpotPrice,
  refreshCoinPrice,
  refreshCoinPricesIfDue,
} from "./coin-prices";

const ADMIN = vi.hoisted(() => (process.env.ADMIN_TOKEN = "coin-prices-test-admin-token-0123456789"));
const admin = { Authorization: `Bearer ${ADMIN}` };
const URL = "https://prices.example/eth";

let database: Database;
let restore: () => void;
beforeAll(async () => {
  database = await openTestDatabase();
  restore = useAsProcessDatabase(database);
});
afterAll(async () => {
  restore?.();
  await database?.close();
});

const feed = (body: unknown, status = 200) =>
  (async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status })) as unknown as typeof fetch;
const live = { networkMode: "mainnet" as const, ethUsdPriceUrl: URL, ethUsdMaxAgeMinutes: 10 };

describe("a spot ticker's price", () => {
  it("is read from the tickers' own shapes", () => {
    expect(parseSpotPrice(JSON.stringify({ data: { amount: "3012.345", base: "ETH", currency: "USD" } }))).toBe("3012.345");
    expect(parseSpotPrice(JSON.stringify({ ethereum: { usd: 3012.5 } }))).toBe("3012.5");
    expect(parseSpotPrice(JSON.stringify({ symbol: "ETHUSDT", price: "3012.00000000" }))).toBe("3012");
    expect(parseSpotPrice(JSON.stringify({ error: [], result: { XETHZUSD: { a: ["3013.1"], c: ["3012.9", "0.1"] } } }))).toBe("3012.9");
  });

  it("refuses what is no positive price", () => {
    for (const bad of [
      "<html>",
      "{}",
      '{"price": "-3"}',
      '{"price": "0"}',
      '{"price": "0.000"}',
      '{"price": "1e9"}',
      '{"price": "3012.123456789"}',
      '{"price": "99999999999"}',
      '{"price": null}',
      "[1]",
    ]) {
      expect(() => parseSpotPrice(bad), bad).toThrow();
    }
  });
});

describe("the stored ether price", () => {
  it("is the devnet's fixed price without a feed, and none on a real network without one", async () => {
    expect(await coinPrice(database.db, "ETH", { networkMode: "devnet", ethUsdPriceUrl: undefined, ethUsdMaxAgeMinutes: 10 })).toEqual({ usd: DEVNET_ETH_USD });
    expect(await coinPrice(database.db, "ETH", { networkMode: "mainnet", ethUsdPriceUrl: undefined, ethUsdMaxAgeMinutes: 10 })).toMatchObject({
      refused: expect.stringContaining("ETH_USD_PRICE_URL"),
    });
    expect(await coinPrice(database.db, "ETH", live)).toMatchObject({ refused: expect.stringContaining("not been read") });
  });

  it("prices while fresh, refuses once stale, and holds a jump for the operator", async () => {
    const t0 = new Date("2026-12-07T12:00:00Z");
    expect(await refreshCoinPrice(database.db, "ETH", URL, { fetch: feed({ price: "3000" }), now: t0, maxMovePercent: 15 })).toEqual({
      usd: "3000",
      held: false,
    });
    expect(await coinPrice(database.db, "ETH", live, new Date(t0.getTime() + 5 * 60_000))).toEqual({ usd: "3000" });
    expect(await coinPrice(database.db, "ETH", live, new Date(t0.getTime() + 11 * 60_000))).toMatchObject({
      refused: expect.stringContaining("11 minutes old"),
    });

    // A 10 % move is applied; a 50 % one is held, the applied price pricing meanwhile.
    const t1 = new Date(t0.getTime() + 60_000);
    expect(await refreshCoinPrice(database.db, "ETH", URL, { fetch: feed({ price: "3300" }), now: t1, maxMovePercent: 15 })).toEqual({
      usd: "3300",
      held: false,
    });
    const t2 = new Date(t1.getTime() + 60_000);
    expect(await refreshCoinPrice(database.db, "ETH", URL, { fetch: feed({ price: "1650" }), now: t2, maxMovePercent: 15 })).toEqual({
      usd: "1650",
      held: true,
    });
    expect(await coinPrice(database.db, "ETH", live, t2)).toEqual({ usd: "3300" });
    const held = await heldCoinPrices(database.db);
    expect(held).toEqual([{ coin: "ETH", applied: "3300", held: "1650", heldAt: t2 }]);
    expect(heldCoinPriceWarning(held[0]!)).toContain("from 3300 to 1650 USD");

    // A feed that fails leaves it all as it was.
    await expect(refreshCoinPrice(database.db, "ETH", URL, { fetch: feed("down", 503) })).rejects.toThrow("503");
    await refreshCoinPricesIfDue(database.db, { ethUsdPriceUrl: "http://127.0.0.1:9/price", ethUsdMaxMovePercent: 15 }, new Date(t2.getTime() + 5 * 60_000));
    expect(await coinPrice(database.db, "ETH", live, t2)).toEqual({ usd: "3300" });

    // The operator confirms through the admin API.
    expect(await callRoute(confirmRoute, "/api/admin/prices/confirm", { body: { coin: "ETH" } })).toMatchObject({ status: 401 });
    expect(await callRoute(confirmRoute, "/api/admin/prices/confirm", { headers: admin, body: { coin: "BTC" } })).toMatchObject({ status: 400 });
    expect(await callRoute(confirmRoute, "/api/admin/prices/confirm", { headers: admin, body: { coin: "ETH" } })).toMatchObject({
      status: 200,
      body: { coin: "ETH", usd: "1650" },
    });
    expect(await callRoute(confirmRoute, "/api/admin/prices/confirm", { headers: admin, body: { coin: "ETH" } })).toMatchObject({
      status: 404,
      body: { error_code: "not_held" },
    });
    expect(await confirmCoinPrice(database.db, "ETH")).toBeUndefined();
    expect(await heldCoinPrices(database.db)).toEqual([]);
    const [row] = await database.db.select().from(coinPrices);
    expect(row).toMatchObject({ usd: "1650", heldUsd: null });
  });
});

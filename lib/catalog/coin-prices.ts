import { and, eq, isNotNull } from "drizzle-orm";
import { config, type Config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { coinPrices } from "@/lib/platform/db/schema";
import { log } from "@/lib/platform/log";

/** The coins priced by a feed of their own (the FX rates have no crypto). */
export type Coin = "ETH";

/** The devnet's ether price when no feed is set: fixed, so that amounts in tests and demos are predictable. */
export const DEVNET_ETH_USD = "3000";
/** A feed is read again once the stored price is this old. */
export const COIN_REFRESH_MS = 60_000;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_FEED_BYTES = 64 * 1024;

/** A price: US dollars per coin, as a decimal with at most 8 places. */
const PRICE = /^\d{1,9}(\.\d{1,8})?$/;

/**
 * The spot price in a ticker's answer: Coinbase (`{"data": {"amount": "…"}}`), CoinGecko (`{"ethereum": {"usd": …}}`),
 * Binance (`{"price": "…"}`), Kraken (`{"result": {"<pair>": {"c": ["…", …]}}}`), or `{"price": …}`. Throws with the
 * reason when there is none, or it is no positive price.
 */
export function parseSpotPrice(text: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error("the price feed's answer is not JSON");
  }
  const o = (v: unknown): Record<string, unknown> | undefined =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const root = o(doc);
  const kraken = o(o(root?.result) && Object.values(o(root?.result)!)[0]);
  const candidates = [o(root?.data)?.amount, o(root?.ethereum)?.usd, root?.price, Array.isArray(kraken?.c) ? (kraken.c as unknown[])[0] : undefined];
  const found = candidates.find((c) => typeof c === "string" || typeof c === "number");
  if (found === undefined) throw new Error("the price feed's answer holds no price (data.amount, ethereum.usd, price, or result.<pair>.c[0])");
  const raw = typeof found === "number" ? found.toFixed(8) : found.trim();
  const price = raw.includes(".") ? raw.replace(/0+$/, "").replace(/\.$/, "") : raw;
  if (!PRICE.test(price) || !/[1-9]/.test(price)) throw new Error(`the price feed's price ${JSON.stringify(found)} is no positive price`);
  return price;
}

/** How far `to` is from `from`, in percent of `from` (both decimal prices). */
function movePercent(from: string, to: string): number {
  return (Math.abs(Number(to) - Number(from)) / Number(from)) * 100;
}

/**
 * Reads the feed and stores the price for every server. A price that moves more than `maxMovePercent` from the
 * applied one is held for the operator (`confirmCoinPrice`), and the applied one keeps pricing until it is stale.
 * Throws with the reason when the feed cannot be read; the stored price stays.
 */
export async function refreshCoinPrice(
  db: Db,
  coin: Coin,
  url: string,
  opts: { fetch?: typeof fetch; maxMovePercent?: number; now?: Date } = {},
): Promise<{ usd: string; held: boolean }> {
  const res = await (opts.fetch ?? fetch)(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_FEED_BYTES) throw new Error(`${url} sent more than ${MAX_FEED_BYTES} bytes: not a price`);
  const usd = parseSpotPrice(text);
  const now = opts.now ?? new Date();
  const [applied] = await db.select().from(coinPrices).where(eq(coinPrices.coin, coin));
  const maxMove = opts.maxMovePercent ?? config().ethUsdMaxMovePercent;
  if (applied && movePercent(applied.usd, usd) > maxMove) {
    await db.update(coinPrices).set({ heldUsd: usd, heldAt: now }).where(eq(coinPrices.coin, coin));
    return { usd, held: true };
  }
  await db
    .insert(coinPrices)
    .values({ coin, usd, fetchedAt: now, source: url })
    .onConflictDoUpdate({ target: coinPrices.coin, set: { usd, fetchedAt: now, source: url, heldUsd: null, heldAt: null } });
  return { usd, held: false };
}

/** Reads the ether feed (ETH_USD_PRICE_URL) when the stored price is COIN_REFRESH_MS old; a failure is logged. */
export async function refreshCoinPricesIfDue(db: Db, c: Pick<Config, "ethUsdPriceUrl" | "ethUsdMaxMovePercent"> = config(), now = new Date()): Promise<void> {
  if (!c.ethUsdPriceUrl) return;
  const [stored] = await db.select().from(coinPrices).where(eq(coinPrices.coin, "ETH"));
  const last = Math.max(stored?.fetchedAt.getTime() ?? 0, stored?.heldAt?.getTime() ?? 0);
  if (now.getTime() - last < COIN_REFRESH_MS) return;
  try {
    const r = await refreshCoinPrice(db, "ETH", c.ethUsdPriceUrl, { maxMovePercent: c.ethUsdMaxMovePercent, now });
    if (r.held) log.warn({ coin: "ETH", fetched: r.usd, applied: stored?.usd }, "an ether price that moved too far is held for the operator");
  } catch (err) {
    log.warn({ err, coin: "ETH" }, "the ether price feed could not be read: the stored price stays");
  }
}

/**
 * The price to lock on a new invoice (US dollars per coin), or why there is none: the devnet's fixed price without a
 * feed; else the stored price while it is at most ETH_USD_MAX_AGE_MINUTES old. Never a stale or missing price.
 */
export async function coinPrice(
  db: Db,
  coin: Coin,
  c: Pick<Config, "networkMode" | "ethUsdPriceUrl" | "ethUsdMaxAgeMinutes"> = config(),
  now = new Date(),
): Promise<{ usd: string } | { refused: string }> {
  if (!c.ethUsdPriceUrl) {
    return c.networkMode === "devnet" ? { usd: DEVNET_ETH_USD } : { refused: "no ether price feed is set (ETH_USD_PRICE_URL)" };
  }
  const [stored] = await db.select().from(coinPrices).where(eq(coinPrices.coin, coin));
  if (!stored) return { refused: "the ether price has not been read yet" };
  const age = now.getTime() - stored.fetchedAt.getTime();
  if (age > c.ethUsdMaxAgeMinutes * 60_000) {
    return {
      refused: `the stored ether price is ${Math.round(age / 60_000)} minutes old (at most ${c.ethUsdMaxAgeMinutes})${stored.heldUsd ? ", and a jump to " + stored.heldUsd + " USD waits for the operator" : ""}`,
    };
  }
  return { usd: stored.usd };
}

/** Applies a held price (the operator confirms the jump). Returns it, or undefined when none is held. */
export async function confirmCoinPrice(db: Db, coin: Coin, now = new Date()): Promise<string | undefined> {
  const [held] = await db
    .update(coinPrices)
    .set({ usd: coinPrices.heldUsd, fetchedAt: now, heldUsd: null, heldAt: null })
    .where(and(eq(coinPrices.coin, coin), isNotNull(coinPrices.heldUsd)))
    .returning({ usd: coinPrices.usd });
  return held?.usd;
}

export type HeldCoinPrice = { coin: Coin; applied: string; held: string; heldAt: Date };

/** Prices held for the operator (a readiness warning each, and a form on /operator). */
export async function heldCoinPrices(db: Db): Promise<HeldCoinPrice[]> {
  const rows = await db.select().from(coinPrices).where(isNotNull(coinPrices.heldUsd));
  return rows.map((r) => ({ coin: r.coin as Coin, applied: r.usd, held: r.heldUsd!, heldAt: r.heldAt ?? r.fetchedAt }));
}

/** The readiness warning of a held price. */
export function heldCoinPriceWarning(h: HeldCoinPrice): string {
  return `${h.coin} price held: the feed moved it from ${h.applied} to ${h.held} USD (at ${h.heldAt.toISOString()}); confirm it on /operator or with POST /api/admin/prices/confirm if it is right. The applied price keeps pricing until it is stale`;
}

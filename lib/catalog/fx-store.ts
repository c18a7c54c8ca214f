import { desc, sql } from "drizzle-orm";
import { config, type Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { fxRates } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { parseRate, setFxSource, shippedFxSource, type FxSource, type Rate } from "./fx";
import { parseFxFeed, usdRates } from "./fx-feed";

/** Live rates are read from FX_RATES_URL when the newest stored ones were fetched longer ago than this. */
export const FX_REFRESH_MS = 60 * 60_000;
/** Each server looks at the newest stored rates this often (another server's refresh is seen within this long). */
const FX_CHECK_MS = 60_000;
/** A rates document larger than this is not one. */
const MAX_FEED_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

export type StoredRates = { asOf: string; usdPerUnit: Record<string, string>; fetchedAt: Date };

/**
 * Reads FX_RATES_URL (the ECB's daily XML, or JSON `{base, date, rates}`) and stores the day's rates, in US dollars
 * per unit, for every server. A day already stored is replaced (the ECB may correct a publication). Throws with the
 * reason when the document cannot be read; the rates stored before stay.
 */
export async function refreshFxRates(db: Db, url: string, opts: { fetch?: typeof fetch } = {}): Promise<{ asOf: string; currencies: number }> {
  const res = await (opts.fetch ?? fetch)(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: "application/xml, application/json" } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const length = Number(res.headers.get("content-length") ?? 0);
  if (length > MAX_FEED_BYTES) throw new Error(`${url} sent ${length} bytes: not a rates document`);
  const text = await res.text();
  if (text.length > MAX_FEED_BYTES) throw new Error(`${url} sent more than ${MAX_FEED_BYTES} bytes: not a rates document`);
  const feed = parseFxFeed(text);
  const usdPerUnit = usdRates(feed);
  await db
    .insert(fxRates)
    .values({ asOf: feed.asOf, base: feed.base, usdPerUnit, source: url })
    .onConflictDoUpdate({ target: fxRates.asOf, set: { base: feed.base, usdPerUnit, source: url, fetchedAt: sql`now()` } });
  return { asOf: feed.asOf, currencies: Object.keys(usdPerUnit).length };
}

/** The newest stored rates (by their day), if any. */
export async function latestFxRates(db: Db): Promise<StoredRates | undefined> {
  const [row] = await db
    .select({ asOf: fxRates.asOf, usdPerUnit: fxRates.usdPerUnit, fetchedAt: fxRates.fetchedAt })
    .from(fxRates)
    .orderBy(desc(fxRates.asOf))
    .limit(1);
  return row;
}

/**
 * Prices from stored rates: the dollar is always 1; any other currency only while the rates are at most
 * `maxAgeHours` old by their own day (counted from its end, UTC), and only if the feed has it. Otherwise undefined:
 * the products of that currency are unavailable rather than mispriced. No rates stored yet: only dollar products.
 */
export function liveFxSource(stored: StoredRates | undefined, maxAgeHours: number, now: () => number = Date.now): FxSource {
  const rates = new Map<string, Rate>(Object.entries(stored?.usdPerUnit ?? {}).map(([c, r]) => [c, parseRate(r)]));
  const dollar = parseRate("1");
  const endOfDay = stored ? Date.parse(`${stored.asOf}T00:00:00Z`) + 24 * 3600_000 : 0;
  return {
    asOf: stored?.asOf ?? "",
    usdPerUnit(currency) {
      if (currency === "USD") return dollar;
      if (!stored || now() - endOfDay > maxAgeHours * 3600_000) return undefined;
      return rates.get(currency);
    },
  };
}

type Held = { source?: FxSource; checkedAt: number; pending?: Promise<FxSource> };
const store = globalThis as typeof globalThis & { __storefrontFx?: WeakMap<object, Held> };
const held = () => (store.__storefrontFx ??= new WeakMap());

/**
 * Installs the rates this process prices with (lib/catalog/fx.ts `fxSource`), and answers them: with FX_RATES_URL the
 * newest stored rates of `db`, looked at once a minute (concurrent readers share the look); without it the shipped
 * table. Called by every catalog read (catalogSnapshot), so that a server prices with the rates any server stored.
 */
export async function syncFxSource(db: Db, c: Pick<Config, "fxRatesUrl" | "fxMaxAgeHours"> = config(), now = Date.now()): Promise<FxSource> {
  if (!c.fxRatesUrl) return shippedFxSource;
  const map = held();
  const entry = map.get(db) ?? { checkedAt: 0 };
  map.set(db, entry);
  if (entry.source && now - entry.checkedAt < FX_CHECK_MS) return entry.source;
  entry.pending ??= latestFxRates(db)
    .then((stored) => {
      // Unchanged rates keep their source object, and the prices computed with it.
      const source = entry.source && stored && entry.source.asOf === stored.asOf ? entry.source : liveFxSource(stored, c.fxMaxAgeHours);
      Object.assign(entry, { source, checkedAt: now });
      setFxSource(source);
      return source;
    })
    .catch((err: unknown) => {
      // The database did not answer: the rates held keep pricing (their age still counts); none held, the read fails.
      if (entry.source) return entry.source;
      throw err;
    })
    .finally(() => (entry.pending = undefined));
  return entry.pending;
}

/** Drops this process's view of the stored rates (after it stored new ones): the next catalog read looks again. */
export function fxRatesChanged(db: Db): void {
  held().delete(db);
}

/**
 * The scheduler's job: reads FX_RATES_URL when the newest stored rates were fetched more than an hour ago (or none
 * are stored). A failure is logged and tried again at the next pass; the shop keeps the rates it has, and products of
 * other currencies than the dollar become unavailable once those are too old.
 */
export async function refreshFxRatesIfDue(db: Db, c: Pick<Config, "fxRatesUrl"> = config(), now = Date.now()): Promise<string | undefined> {
  if (!c.fxRatesUrl) return undefined;
  // By the newest fetch, whatever its day: a feed that still serves an older day is not asked again every round.
  const [last] = await db.select({ at: sql<Date | string | null>`max(${fxRates.fetchedAt})` }).from(fxRates);
  if (last?.at && now - new Date(last.at).getTime() < FX_REFRESH_MS) return undefined;
  try {
    const { asOf, currencies } = await refreshFxRates(db, c.fxRatesUrl);
    fxRatesChanged(db);
    log.info({ as_of: asOf, currencies }, "exchange rates refreshed");
    return asOf;
  } catch (err) {
    log.error({ err: err instanceof Error ? err.message : String(err), url: c.fxRatesUrl }, "exchange rates could not be refreshed");
    return undefined;
  }
}

import { asc, desc, eq, lte, sql } from "drizzle-orm";
import { config, type Config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { fxHeldRates, fxRates } from "@/lib/platform/db/schema";
import { log } from "@/lib/platform/log";
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

/** A currency whose fetched rate moved too far from the applied one (US dollars per unit; the move in percent, signed). */
export type FxMove = { currency: string; from: string; to: string; percent: string };

/** Fetched rates held for the operator (fx_held_rates): of the day `asOf`, compared with the applied rates of `against`. */
export type HeldFxRates = { asOf: string; against: string; moves: FxMove[]; source: string; fetchedAt: Date };

/**
 * Reads FX_RATES_URL (the ECB's daily XML, or JSON `{base, date, rates}`) and stores the day's rates, in US dollars
 * per unit, for every server. A day already stored is replaced (the ECB may correct a publication). Rates that move a
 * currency more than `maxMovePercent` from the applied ones are not applied: they are held (fx_held_rates, answered as
 * `held`) until the operator confirms them; rates within bounds drop the held ones of their day and before. Throws
 * with the reason when the document cannot be read; the rates stored before stay.
 */
export async function refreshFxRates(
  db: Db,
  url: string,
  opts: { fetch?: typeof fetch; maxMovePercent?: number } = {},
): Promise<{ asOf: string; currencies: number; held?: Pick<HeldFxRates, "against" | "moves"> }> {
  const res = await (opts.fetch ?? fetch)(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: "application/xml, application/json" } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const length = Number(res.headers.get("content-length") ?? 0);
  if (length > MAX_FEED_BYTES) throw new Error(`${url} sent ${length} bytes: not a rates document`);
  const text = await res.text();
  if (text.length > MAX_FEED_BYTES) throw new Error(`${url} sent more than ${MAX_FEED_BYTES} bytes: not a rates document`);
  const feed = parseFxFeed(text);
  const usdPerUnit = usdRates(feed);
  const currencies = Object.keys(usdPerUnit).length;
  // Against the applied rates, never a held day: the first rates ever read have nothing to be compared with.
  const applied = await latestFxRates(db);
  const moves = applied ? fxMoves(applied.usdPerUnit, usdPerUnit, opts.maxMovePercent ?? config().fxMaxMovePercent) : [];
  if (applied && moves.length > 0) {
    const held = { base: feed.base, usdPerUnit, source: url, against: applied.asOf, moves };
    await db
      .insert(fxHeldRates)
      .values({ asOf: feed.asOf, ...held })
      .onConflictDoUpdate({ target: fxHeldRates.asOf, set: { ...held, fetchedAt: sql`now()` } });
    return { asOf: feed.asOf, currencies, held: { against: applied.asOf, moves } };
  }
  await db.transaction(async (tx) => {
    await storeRates(tx as unknown as Db, { asOf: feed.asOf, base: feed.base, usdPerUnit, source: url });
    // Back within bounds: what was held of this day or before is moot.
    await tx.delete(fxHeldRates).where(lte(fxHeldRates.asOf, feed.asOf));
  });
  return { asOf: feed.asOf, currencies };
}

async function storeRates(db: Db, rates: { asOf: string; base: string; usdPerUnit: Record<string, string>; source: string }): Promise<void> {
  const { base, usdPerUnit, source } = rates;
  await db
    .insert(fxRates)
    .values(rates)
    .onConflictDoUpdate({ target: fxRates.asOf, set: { base, usdPerUnit, source, fetchedAt: sql`now()` } });
}

/**
 * The currencies of both tables whose rate moved more than `maxPercent` percent from `applied` to `fetched`, exactly
 * (fractions, no floating point). A currency new in the feed, or gone from it, is no move.
 */
export function fxMoves(applied: Record<string, string>, fetched: Record<string, string>, maxPercent: number): FxMove[] {
  return Object.entries(fetched).flatMap(([currency, to]) => {
    const before = applied[currency];
    if (before === undefined) return [];
    const a = parseRate(before);
    const b = parseRate(to);
    // (b - a) / a = (b.n * a.d - a.n * b.d) / (b.d * a.n)
    const change = b.numerator * a.denominator - a.numerator * b.denominator;
    const over = b.denominator * a.numerator;
    const size = change < 0n ? -change : change;
    if (size * 100n <= BigInt(maxPercent) * over) return [];
    // In hundredths of a percent, rounded towards zero: "+25", "-12.5".
    const hundredths = (size * 10_000n) / over;
    const frac = (hundredths % 100n).toString().padStart(2, "0").replace(/0+$/, "");
    return [{ currency, from: before, to, percent: `${change < 0n ? "-" : "+"}${hundredths / 100n}${frac ? `.${frac}` : ""}` }];
  });
}

/** The fetched rates held for the operator, oldest day first. */
export async function heldFxRates(db: Db): Promise<HeldFxRates[]> {
  return db
    .select({ asOf: fxHeldRates.asOf, against: fxHeldRates.against, moves: fxHeldRates.moves, source: fxHeldRates.source, fetchedAt: fxHeldRates.fetchedAt })
    .from(fxHeldRates)
    .orderBy(asc(fxHeldRates.asOf));
}

/** What the operator is told of held rates (the log, readiness warnings, /operator). */
export function heldFxWarning(h: Pick<HeldFxRates, "asOf" | "against" | "moves">): string {
  const moves = h.moves.map((m) => `${m.currency} ${m.from} -> ${m.to} USD (${m.percent} %)`).join(", ");
  return (
    `exchange rates of ${h.asOf} held: ${moves} from the rates of ${h.against}, more than FX_MAX_MOVE_PERCENT allows. ` +
    `Prices keep the rates of ${h.against}; confirm the new ones on /operator (or POST /api/admin/fx/confirm) if the move is real`
  );
}

/**
 * The operator's confirmation of held rates: the day's rates are stored as fetched (every server prices with them
 * within a minute, this one at once), and held ones of that day or before are dropped. Undefined when none is held
 * for that day.
 */
export async function confirmFxRates(db: Db, asOf: string): Promise<{ asOf: string; currencies: number } | undefined> {
  const confirmed = await db.transaction(async (tx) => {
    const [held] = await tx.delete(fxHeldRates).where(eq(fxHeldRates.asOf, asOf)).returning();
    if (!held) return undefined;
    await storeRates(tx as unknown as Db, { asOf: held.asOf, base: held.base, usdPerUnit: held.usdPerUnit, source: held.source });
    await tx.delete(fxHeldRates).where(lte(fxHeldRates.asOf, asOf));
    return { asOf, currencies: Object.keys(held.usdPerUnit).length };
  });
  if (confirmed) {
    fxRatesChanged(db);
    log.info({ as_of: asOf, currencies: confirmed.currencies }, "held exchange rates confirmed by the operator");
  }
  return confirmed;
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
export async function refreshFxRatesIfDue(
  db: Db,
  c: Pick<Config, "fxRatesUrl" | "fxMaxMovePercent"> = config(),
  now = Date.now(),
): Promise<string | undefined> {
  if (!c.fxRatesUrl) return undefined;
  // By the newest fetch, whatever its day, held ones too: a feed that still serves an older day, or rates held for
  // the operator, is not asked again every round.
  const [last] = await db
    .select({ at: sql<Date | string | null>`greatest(max(${fxRates.fetchedAt}), (SELECT max(${fxHeldRates.fetchedAt}) FROM ${fxHeldRates}))` })
    .from(fxRates);
  if (last?.at && now - new Date(last.at).getTime() < FX_REFRESH_MS) return undefined;
  try {
    const { asOf, currencies, held } = await refreshFxRates(db, c.fxRatesUrl, { maxMovePercent: c.fxMaxMovePercent });
    if (held) {
      log.warn({ as_of: asOf, against: held.against, max_move_percent: c.fxMaxMovePercent }, heldFxWarning({ asOf, ...held }));
      return undefined;
    }
    fxRatesChanged(db);
    log.info({ as_of: asOf, currencies }, "exchange rates refreshed");
    return asOf;
  } catch (err) {
    log.error({ err: err instanceof Error ? err.message : String(err), url: c.fxRatesUrl }, "exchange rates could not be refreshed");
    return undefined;
  }
}

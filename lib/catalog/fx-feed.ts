import { XMLParser } from "fast-xml-parser";
import { z } from "zod";

/**
 * A day's exchange rates as a feed publishes them: units of each currency per one unit of `base`, as decimal strings
 * (exact; never floating point). The ECB's daily reference rates are against the euro, which the feed does not list.
 */
export type FxFeed = { base: string; asOf: string; rates: Record<string, string> };

/** US dollars per one unit of each currency, as decimal strings rounded to this many places (up: never too cheap). */
export const USD_RATE_DECIMALS = 10;

const CURRENCY = /^[A-Z]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^\d{1,12}(?:\.\d{1,12})?$/;

/** A rate as a plain decimal string: JSON numbers are printed without an exponent. */
const decimalString = z.union([z.string(), z.number().positive().finite()]).transform((v, ctx) => {
  const text = typeof v === "number" ? numberText(v) : v.trim();
  if (!DECIMAL.test(text) || !/[1-9]/.test(text)) {
    ctx.addIssue({ code: "custom", message: `not a positive decimal rate: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return text;
});

/** The JSON shape of Frankfurter and similar services: `{ base, date, rates: { USD: 1.1592, ... } }`. */
const JsonFeed = z.object({
  base: z.string().regex(CURRENCY),
  date: z.string().regex(DAY),
  rates: z.record(z.string().regex(CURRENCY), decimalString),
});

/**
 * Reads a rates document: the ECB's daily XML (`gesmes:Envelope` > `Cube` > `Cube time` > `Cube currency rate`), or
 * JSON `{base, date, rates}`. Throws a message that says what is wrong; a document without a dollar rate (directly or
 * as the base) is refused, since every price is in USD.
 */
export function parseFxFeed(text: string): FxFeed {
  const body = text.trim();
  const feed = body.startsWith("<") ? parseEcbXml(body) : parseJsonFeed(body);
  if (feed.base !== "USD" && !feed.rates.USD) throw new Error(`The rates of ${feed.asOf} have no US dollar rate against ${feed.base}`);
  if (Object.keys(feed.rates).length === 0) throw new Error(`The rates document of ${feed.asOf} lists no currency`);
  return feed;
}

function parseJsonFeed(body: string): FxFeed {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error("The rates document is neither XML nor JSON");
  }
  const parsed = JsonFeed.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`The rates document is not {base, date, rates}: ${issue?.path.join(".") || "document"}: ${issue?.message ?? "invalid"}`);
  }
  const rates = { ...parsed.data.rates };
  delete rates[parsed.data.base];
  return { base: parsed.data.base, asOf: parsed.data.date, rates };
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  // A day with a single currency is still a list.
  isArray: (_name, path) => path === "Envelope.Cube.Cube.Cube",
});

function parseEcbXml(body: string): FxFeed {
  let doc: { Envelope?: { Cube?: { Cube?: { time?: unknown; Cube?: { currency?: unknown; rate?: unknown }[] } } } };
  try {
    doc = xml.parse(body, true) as typeof doc;
  } catch (err) {
    throw new Error(`The rates document is not well-formed XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const day = doc.Envelope?.Cube?.Cube;
  if (!day || typeof day.time !== "string" || !DAY.test(day.time)) throw new Error("The rates document is not the ECB's: no Cube with a time");
  const rates: Record<string, string> = {};
  for (const cube of day.Cube ?? []) {
    const currency = typeof cube.currency === "string" ? cube.currency.trim() : "";
    const rate = typeof cube.rate === "string" ? cube.rate.trim() : "";
    if (!CURRENCY.test(currency) || !DECIMAL.test(rate) || !/[1-9]/.test(rate)) {
      throw new Error(`The ECB rates of ${day.time} hold an entry that is not a currency and a positive rate: ${JSON.stringify(cube)}`);
    }
    rates[currency] = rate;
  }
  return { base: "EUR", asOf: day.time, rates };
}

/**
 * US dollars per one unit of each currency of the feed (and of its base), exact decimal strings rounded up to
 * USD_RATE_DECIMALS places: units of X per base are `r(X)`, so one X is `r(USD) / r(X)` dollars (the ECB's crosses,
 * derived from one table, not rebased by a service that rounds them).
 */
export function usdRates(feed: FxFeed): Record<string, string> {
  const perBase = (currency: string) => (currency === feed.base ? fraction("1") : fraction(feed.rates[currency]!));
  const usd = perBase("USD");
  const out: Record<string, string> = { USD: "1" };
  for (const currency of [feed.base, ...Object.keys(feed.rates)]) {
    if (currency === "USD") continue;
    const x = perBase(currency);
    // (usd.n / usd.d) / (x.n / x.d), rounded up at USD_RATE_DECIMALS places.
    const scale = 10n ** BigInt(USD_RATE_DECIMALS);
    const numerator = usd.n * x.d * scale;
    const denominator = usd.d * x.n;
    const scaled = (numerator + denominator - 1n) / denominator;
    out[currency] = decimalText(scaled, USD_RATE_DECIMALS);
  }
  return out;
}

function fraction(decimal: string): { n: bigint; d: bigint } {
  const [whole = "0", frac = ""] = decimal.split(".");
  return { n: BigInt(whole + frac), d: 10n ** BigInt(frac.length) };
}

/** `scaled / 10^places` as a decimal string without trailing zeros ("0.0062408000" -> "0.0062408"). */
function decimalText(scaled: bigint, places: number): string {
  const digits = scaled.toString().padStart(places + 1, "0");
  const whole = digits.slice(0, -places);
  const frac = digits.slice(-places).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

/** A JSON number as a decimal string without an exponent (1e-7 -> "0.0000001"). */
function numberText(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toFixed(12).replace(/\.?0+$/, "");
}

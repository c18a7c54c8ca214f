import table from "./fx-rates.json";

/** An exchange rate as an exact fraction: `numerator / denominator` US dollars per one unit of a currency. */
export type Rate = { numerator: bigint; denominator: bigint };

/** Where exchange rates come from. The shipped table is the default; a live source can replace it. */
export interface FxSource {
  /** The date the rates were taken (ISO 8601 day). */
  readonly asOf: string;
  /** US dollars per one unit of `currency`, or undefined when the source has no rate for it. */
  usdPerUnit(currency: string): Rate | undefined;
}

/** Parses a decimal string ("1.0812") into an exact fraction. */
export function parseRate(decimal: string): Rate {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) throw new Error(`Not a decimal rate: ${decimal}`);
  const frac = m[2] ?? "";
  return { numerator: BigInt((m[1] ?? "0") + frac), denominator: 10n ** BigInt(frac.length) };
}

/** A rates table held in memory: `{ "EUR": "1.0812", ... }` in US dollars per unit. */
export function tableFxSource(asOf: string, usdPerUnit: Record<string, string>): FxSource {
  const rates = new Map(Object.entries(usdPerUnit).map(([c, r]) => [c, parseRate(r)]));
  return { asOf, usdPerUnit: (currency) => rates.get(currency) };
}

/** The dated table shipped with the catalog (`fx-rates.json`). */
export const shippedFxSource: FxSource = tableFxSource(table.asOf, table.usdPerUnit);

// On globalThis, not in this module: a server runs several bundles (pages, route handlers, instrumentation), each with
// its own copy of this module. The rates one of them installed are every bundle's at once; a module variable left the
// others on the shipped table until their own next look at the stored rates, a minute after a start.
const held = globalThis as typeof globalThis & { __storefrontFxSource?: FxSource };

/** The rates prices are computed with: the shipped table unless a live source was installed. */
export function fxSource(): FxSource {
  return held.__storefrontFxSource ?? shippedFxSource;
}

/** Replaces the rates source for this process (a live feed, or a fixed table in tests). */
export function setFxSource(source: FxSource): void {
  held.__storefrontFxSource = source;
}

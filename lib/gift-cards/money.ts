import { currencyExponent, centsAt } from "@/lib/catalog";
import { formatMinorUnits, parseMinorUnits } from "@/lib/platform/money";
import type { FxSource, Rate } from "@/lib/catalog";
import { DomainError } from "@/lib/platform/errors";

/** A currency the shop issues gift cards in: an ISO 4217 code with a current exchange rate. */
export type CardCurrency = { currency: string; exponent: number; rate: Rate };

/** The currency of a card, or `invalid_currency` when it is not a currency with a current rate. */
export function cardCurrency(currency: unknown, fx: FxSource): CardCurrency {
  const code = typeof currency === "string" ? currency.trim().toUpperCase() : "";
  const exponent = /^[A-Z]{3}$/.test(code) ? currencyExponent(code) : undefined;
  if (exponent === undefined) throw new DomainError("invalid_currency", "currency: not an ISO 4217 currency code (USD, EUR, …).", { path: ["currency"] });
  const rate = fx.usdPerUnit(code);
  if (!rate) throw new DomainError("invalid_currency", `currency: ${code} is not supported now (no current exchange rate).`, { path: ["currency"] });
  return { currency: code, exponent, rate };
}

/** A value in the card's currency ("25", 25, "9.99") as minor units, or undefined when it is not a plain positive amount. */
export function parseCardValue(value: unknown, c: CardCurrency): bigint | undefined {
  const text = typeof value === "number" ? (Number.isFinite(value) && value >= 0 && value < 1e15 ? String(value) : "") : typeof value === "string" ? value : "";
  if (/e/i.test(text)) return undefined;
  const minor = parseMinorUnits(text, c.exponent);
  return minor !== undefined && minor > 0n ? minor : undefined;
}

export const formatCardValue = (minor: bigint, c: Pick<CardCurrency, "exponent">) => formatMinorUnits(minor, c.exponent);

/** USD cents worth `minor` units, rounded up (what the shop charges for that value). */
export function centsForMinor(minor: bigint, c: CardCurrency): bigint {
  return centsAt(minor, c.rate, c.exponent, "up");
}

/** USD cents that `minor` units pay for, rounded down (what a card's value is worth at checkout). */
export function centsPaidBy(minor: bigint, c: CardCurrency): bigint {
  return centsAt(minor, c.rate, c.exponent, "down");
}

/** The fewest minor units that pay `cents` (rounded up), at most `limit`. */
export function minorForCents(cents: bigint, c: CardCurrency, limit: bigint): bigint {
  const num = cents * c.rate.denominator * 10n ** BigInt(c.exponent);
  const den = c.rate.numerator * 100n;
  const minor = (num + den - 1n) / den;
  return minor > limit ? limit : minor;
}

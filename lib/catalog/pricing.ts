import { formatMinorUnits, parseMinorUnits, USDC_DECIMALS, USDC_PER_CENT, USDC_PER_USD } from "@/lib/platform/money";
import { currencyExponent } from "./currency";
import { parseRate, shippedFxSource, type FxSource, type Rate } from "./fx";

export class PricingError extends Error {
  override name = "PricingError";
}

export type PriceInput = {
  /** Face value in minor units of `currency`. */
  faceValueMinor: bigint;
  currency: string;
};

export type PricingOptions = { fx?: FxSource; marginBps: number };

/**
 * The price in USDC atomic units of a face value: face value -> USD by the FX source, plus the margin,
 * rounded up to the cent, so that the USD and USDC figures a shopper sees are the same number. Exact integer
 * arithmetic throughout.
 */
export function priceUsdc({ faceValueMinor, currency }: PriceInput, { fx = shippedFxSource, marginBps }: PricingOptions): bigint {
  const exponent = currencyExponent(currency);
  const rate = fx.usdPerUnit(currency);
  if (exponent === undefined || !rate) throw new PricingError(`No exchange rate for ${currency}`);
  if (faceValueMinor < 0n) throw new PricingError("Face value must not be negative");
  if (!Number.isInteger(marginBps) || marginBps < 0) throw new PricingError("Margin must be whole non-negative basis points");
  const numerator = faceValueMinor * rate.numerator * USDC_PER_USD * BigInt(10_000 + marginBps);
  const denominator = rate.denominator * 10n ** BigInt(exponent) * 10_000n * USDC_PER_CENT;
  const cents = (numerator + denominator - 1n) / denominator;
  return cents * USDC_PER_CENT;
}

/**
 * A price never below a cost plus a margin: `costCents` US cents (null: no cost known, the price stands) plus
 * `marginBps`, rounded up to the cent.
 */
export function aboveCost(priceUsdc: bigint, costCents: bigint | null, marginBps: number): bigint {
  if (costCents === null) return priceUsdc;
  const floorCents = (costCents * (10_000n + BigInt(marginBps)) + 9_999n) / 10_000n;
  const floor = floorCents * USDC_PER_CENT;
  return floor > priceUsdc ? floor : priceUsdc;
}

/**
 * What a supplier charges for an amount of an open range, in US cents rounded up: `costRate` US dollars per unit of
 * `currency` (null when the product has no cost, as the operator's own ranges).
 */
export function rangeCostCents(faceValueMinor: bigint, costRate: string | null, currency: string): bigint | null {
  if (costRate === null) return null;
  return centsAt(faceValueMinor, parseRate(costRate), currencyExponent(currency) ?? 2);
}

/**
 * US cents worth `minor` units of a currency with `exponent` decimals at `rate` (US dollars per unit), exactly, then
 * rounded up (what is charged or costs that much) or down (what that value pays for).
 */
export function centsAt(minor: bigint, rate: Rate, exponent: number, round: "up" | "down" = "up"): bigint {
  const numerator = minor * rate.numerator * 100n;
  const denominator = rate.denominator * 10n ** BigInt(exponent);
  return (numerator + (round === "up" ? denominator - 1n : 0n)) / denominator;
}

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** "$12.50": for people. */
export function formatUsd(atomic: bigint): string {
  const cents = Number(atomic / USDC_PER_CENT);
  return usdFormat.format(cents / 100);
}

/**
 * "12.50 USDC", "0.001 USDC": a USDC amount for people, always with two decimals (more only when it has them), so that
 * amounts side by side read alike ("10.00 USDC" beside "12.74 USDC").
 */
export function formatUsdc(atomic: bigint): string {
  const negative = atomic < 0n;
  const abs = negative ? -atomic : atomic;
  const frac = (abs % USDC_PER_USD)
    .toString()
    .padStart(USDC_DECIMALS, "0")
    .replace(/0{1,4}$/, "");
  return `${negative ? "-" : ""}${(abs / USDC_PER_USD).toLocaleString("en-US")}.${frac} USDC`;
}

/** formatUsdc of a decimal USDC amount as the APIs give it ("10", "12.5"); the text itself when it is not one. */
export function formatUsdcDecimal(decimal: string): string {
  const atomic = parseMinorUnits(decimal, USDC_DECIMALS);
  return atomic === undefined ? `${decimal} USDC` : formatUsdc(atomic);
}

// An Intl.NumberFormat is slow to make: one per currency, kept.
const moneyFormats = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string): Intl.NumberFormat | null {
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    try {
      // "£10", "€7.50", "¥5,000": whole amounts without ".00", as a card's value is named.
      format = new Intl.NumberFormat("en-US", { style: "currency", currency, trailingZeroDisplay: "stripIfInteger" });
    } catch {
      format = null;
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

/** A face value for people in its own currency: "€25", "£7.50", "¥5,000". */
export function formatFaceValue(faceValueMinor: bigint, currency: string): string {
  return formatPackage(formatMinorUnits(faceValueMinor, currencyExponent(currency) ?? 2), currency);
}

/**
 * How a package is named to people, wherever one is (cart, invoice, order lists, dashboard, messages): a package
 * that is an amount in its product's currency as money ("£10", "$5", "€25"), any other ("1GB, 7 Days", "1,000
 * V-Bucks") as it is. An amount with a currency code that is no code at all
 * keeps it after the amount ("10 US").
 */
export function formatPackage(value: string, currency: string): string {
  if (!/^\d+(\.\d+)?$/.test(value)) return value;
  const format = moneyFormat(currency);
  return format ? format.format(value as Intl.StringNumericLiteral) : `${value} ${currency}`;
}

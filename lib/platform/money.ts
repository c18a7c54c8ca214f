/**
 * Money amounts, one place for each conversion. The shop counts in integers only:
 * - USDC in atomic units (6 decimals: 1 USDC = 1,000,000), taken at 1 USDC = 1 USD;
 * - US dollars in cents (a merchant's balance, gift card coverage, costs);
 * - another currency in its minor units (a face value: £10 is 1000 pence, ¥500 is 500 yen), with its exponent.
 * Decimal strings ("12.5", "25.50") are what the APIs read and write.
 */

/** USDC has 6 decimals: 1 USDC = 1_000_000 atomic units, pegged 1:1 to the US dollar. */
export const USDC_DECIMALS = 6;
export const USDC_PER_USD = 10n ** BigInt(USDC_DECIMALS);
/** One US cent is 10,000 USDC atomic units. */
export const USDC_PER_CENT = USDC_PER_USD / 100n;

/** USDC atomic units worth `cents` US cents. */
export const centsToUsdc = (cents: bigint): bigint => cents * USDC_PER_CENT;

/** US cents worth `atomic` USDC units: rounded up (what is charged for it) or down (what it pays for). */
export function usdcToCents(atomic: bigint, round: "up" | "down" = "up"): bigint {
  return (atomic + (round === "up" ? USDC_PER_CENT - 1n : 0n)) / USDC_PER_CENT;
}

/** "12.5" style decimal string of an atomic USDC amount: what the APIs put in price fields. */
export const usdcToDecimal = (atomic: bigint): string => formatMinorUnits(atomic, USDC_DECIMALS);

/** "25.50" from 2550 cents, "-3.00" from -300: an amount of US dollars with its two decimals. */
export function centsToDecimal(cents: bigint): string {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? "-" : ""}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
}

/**
 * Parses a decimal amount ("10", "9.99", "1500") into minor units of a currency with `exponent` digits.
 * Returns undefined for anything that is not a plain non-negative decimal or has more digits than the currency allows.
 */
export function parseMinorUnits(amount: string, exponent: number): bigint | undefined {
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) return undefined;
  const whole = m[1] ?? "0";
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > exponent) return undefined;
  return BigInt(whole) * 10n ** BigInt(exponent) + BigInt(frac.padEnd(exponent, "0") || "0");
}

/** Formats minor units back into a plain decimal string ("9.99", "10", "1500"). */
export function formatMinorUnits(minor: bigint, exponent: number): string {
  const scale = 10n ** BigInt(exponent);
  const whole = minor / scale;
  const frac = (minor % scale).toString().padStart(exponent, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole.toString();
}

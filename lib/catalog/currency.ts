const exponents = new Map<string, number | undefined>();

/** Number of minor-unit digits of an ISO 4217 currency (2 for USD, 0 for JPY), or undefined when unknown. */
export function currencyExponent(currency: string): number | undefined {
  if (!/^[A-Z]{3}$/.test(currency)) return undefined;
  // An Intl.NumberFormat is slow to make: each currency's answer is kept (there are fewer than 200).
  if (!exponents.has(currency)) {
    let digits: number | undefined;
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
    } catch {
      digits = undefined;
    }
    exponents.set(currency, digits);
  }
  return exponents.get(currency);
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

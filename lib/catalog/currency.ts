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

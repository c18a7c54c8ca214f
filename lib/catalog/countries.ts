const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/** The English name of an ISO 3166-1 alpha-2 country code, or undefined when the code is not a known region. */
export function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return undefined;
  try {
    return regionNames.of(code);
  } catch {
    return undefined;
  }
}

export function isCountryCode(code: string): boolean {
  // "EU", "UN", "ZZ" and the like are regions or placeholders, not countries.
  return countryName(code) !== undefined && !NOT_COUNTRIES.has(code);
}

const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "ZZ", "QO", "XA", "XB"]);

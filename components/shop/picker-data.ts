import { config } from "@/lib/platform/config";
import { currencyExponent } from "@/lib/catalog/currency";
import { fxSource } from "@/lib/catalog/fx";
import { formatPackage } from "@/lib/catalog/pricing";
import type { Product } from "@/lib/catalog";
import type { PickerPackage, PickerRange } from "./package-picker";

/** Shapes a product's packages for the client-side picker (strings only: bigint does not cross to the client as JSON). */
export function pickerPackages(product: Product): PickerPackage[] {
  return product.packages.map((p) => {
    const label = formatPackage(p.value, product.currency);
    // An amount in another currency than the dollar says so; a bundle or a pack ("1,000 V-Bucks") is named as it is.
    const amount = label !== p.value;
    return {
      value: p.value,
      label,
      detail: amount && product.currency !== "USD" ? `${product.currency} face value` : undefined,
      priceUsdc: p.priceUsdc.toString(),
      soldOut: p.stock === 0,
    };
  });
}

export function pickerRange(product: Product, marginBps: number): PickerRange | null {
  const rate = exchangeRate(product.currency);
  if (!product.range || !rate) return null;
  return {
    min: product.range.min,
    max: product.range.max,
    step: product.range.step,
    currency: product.currency,
    exponent: currencyExponent(product.currency) ?? 2,
    usdPerUnit: rate.usdPerUnit,
    marginBps,
    costRate: product.range.costRate,
    costMarginBps: config().upstream?.marginBps ?? 0,
  };
}

/** The rate a currency is priced at now, as a decimal string of US dollars per unit, and the day of the rates. */
export function exchangeRate(currency: string): { usdPerUnit: string; asOf: string } | null {
  const source = fxSource();
  const rate = source.usdPerUnit(currency);
  if (!rate) return null;
  // Rates are decimal fractions (a power of ten below): written out exactly.
  const digits = rate.denominator.toString().length - 1;
  const whole = rate.numerator / rate.denominator;
  const frac = (rate.numerator % rate.denominator).toString().padStart(digits, "0");
  return { usdPerUnit: digits > 0 ? `${whole}.${frac}` : whole.toString(), asOf: source.asOf };
}

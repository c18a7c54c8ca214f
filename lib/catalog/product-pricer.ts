import { config } from "@/lib/platform/config";
import { fxSource } from "./fx";
import { aboveCost, priceUsdc, rangeCostCents } from "./pricing";
import type { Product } from "./types";

/**
 * Prices face values of one currency with the process's rates and margin: minor units -> USDC atomic units. The shop's
 * own gift card (supplier `store`) takes no margin: it sells at its face value.
 */
export function productPricer(currency: string, supplier?: Product["supplier"]): (faceValueMinor: bigint) => bigint {
  const options = { fx: fxSource(), marginBps: supplier === "store" ? 0 : config().priceMarginBps };
  return (faceValueMinor) => priceUsdc({ faceValueMinor, currency }, options);
}

/**
 * The price of a package the upstream supplier sells, in USDC atomic units: its price by face value, but never below
 * what the upstream charges (`costCents`) plus UPSTREAM_MARGIN_PERCENT, rounded up to the cent. A package without a
 * cost keeps its price.
 */
export function atLeastCost(priceUsdc: bigint, costCents: bigint | null): bigint {
  return aboveCost(priceUsdc, costCents, config().upstream?.marginBps ?? 0);
}

/** The price of an amount of a product's open range: by face value, never below the upstream's cost plus the margin. */
export function rangePricer(
  row: { currency: string; supplier: Product["supplier"]; rangeCostRate: string | null },
  price = productPricer(row.currency, row.supplier),
): (faceValueMinor: bigint) => bigint {
  return (minor) => atLeastCost(price(minor), rangeCostCents(minor, row.rangeCostRate, row.currency));
}

/** Lowest and highest of some amounts; nulls when there are none. */
export function minMax(values: bigint[]): { min: bigint | null; max: bigint | null } {
  if (values.length === 0) return { min: null, max: null };
  let min = values[0]!;
  let max = min;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

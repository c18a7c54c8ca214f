import { config } from "@/lib/config";
import { fxSource } from "./fx";
import { priceUsdc } from "./pricing";

/** Prices face values of one currency with the process's rates and margin: minor units -> USDC atomic units. */
export function productPricer(currency: string): (faceValueMinor: bigint) => bigint {
  const options = { fx: fxSource(), marginBps: config().priceMarginBps };
  return (faceValueMinor) => priceUsdc({ faceValueMinor, currency }, options);
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

import { z } from "zod";

export const MIN_TOPUP_CENTS = 100n;
export const MAX_TOPUP_CENTS = 1_000_000n;

/**
 * A top-up amount in USD as typed ("25", "25.5", "1,000.00"), to cents: from 1.00 to 10,000.00, at most two decimals.
 */
export const topupAmount = z
  .string({ error: "Enter an amount in USD." })
  .trim()
  .transform((s) => s.replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, ""))
  .pipe(
    z
      .string()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter an amount in USD, like 25 or 25.50, with at most two decimals.")
      .transform((s) => {
        const [whole = "0", frac = ""] = s.split(".");
        return BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0"));
      })
      .refine((c) => c >= MIN_TOPUP_CENTS && c <= MAX_TOPUP_CENTS, "Top up from 1.00 to 10,000.00 USD at a time."),
  );

import { z } from "zod";
import { isCountryCode } from "./countries";
import { currencyExponent } from "./currency";
import { parseMinorUnits } from "@/lib/platform/money";
import { fxSource, shippedFxSource } from "./fx";

export const PRODUCT_KINDS = ["gift_card", "esim", "topup"] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
export const RECIPIENT_TYPES = ["none", "phone_number", "email"] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

const decimalAmount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d+)?$/, "must be a positive decimal amount such as 10 or 9.99");

const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, { error: (i) => `${JSON.stringify(i.input)} is not an ISO 3166-1 alpha-2 country code` });

export const packageInputSchema = z.object({
  /** What the shopper picks and what an invoice line names: "25" or "3GB, 30 Days". */
  value: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[^<>&]+$/, "must not contain <, > or &"),
  /** Face value in the product currency, as a decimal string. Defaults to `value` when that is a number. */
  faceValue: decimalAmount.optional(),
  /** eSIM bundle data allowance in MB; omitted or null for unlimited. */
  dataMb: z.number().int().positive().nullable().optional(),
  validityDays: z.number().int().positive().max(3650).optional(),
  /** What the supplier charges for it, in US cents (the upstream's price): the shop never sells it for less plus its margin. */
  costCents: z.number().int().nonnegative().max(100_000_000).optional(),
  /** Whether the supplier can deliver this package now (false: listed, not sold). */
  inStock: z.boolean().default(true),
});

/** One product as the seed data and the operator's import files give it. */
export const productInputSchema = z
  .object({
    slug: z
      .string()
      .trim()
      .min(3)
      .max(80)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens"),
    name: z.string().trim().min(2).max(120),
    kind: z.enum(PRODUCT_KINDS),
    brand: z.string().trim().min(1).max(60),
    /** Single-country products name their country; regional eSIMs leave it out and list `coverage`. */
    country: countryCode.optional(),
    coverage: z.array(countryCode).max(250).optional(),
    region: z.string().trim().min(2).max(60).optional(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      // A currency the shop has a rate for: in the shipped table, or in the live rates (which may lapse for a while).
      .refine((c) => currencyExponent(c) !== undefined && (shippedFxSource.usdPerUnit(c) !== undefined || fxSource().usdPerUnit(c) !== undefined), {
        error: (i) => `${JSON.stringify(i.input)} is not an ISO 4217 currency with an exchange rate`,
      }),
    categories: z.array(z.string().trim().min(1).max(40)).max(12).default([]),
    description: z.string().trim().min(1).max(4000),
    redemptionInstructions: z.string().trim().min(1).max(4000),
    image: z.string().trim().max(500).optional(),
    recipientType: z.enum(RECIPIENT_TYPES).default("none"),
    phonePrefixes: z
      .array(
        z
          .string()
          .trim()
          .regex(/^\+\d{1,8}$/, "must be a + followed by 1 to 8 digits"),
      )
      .max(200)
      .default([]),
    inStock: z.boolean().default(true),
    isTest: z.boolean().default(false),
    popularity: z.number().int().min(0).max(1_000_000).default(0),
    packages: z.array(packageInputSchema).max(100).default([]),
    range: z
      .object({
        min: decimalAmount,
        max: decimalAmount,
        step: decimalAmount,
        /** What the supplier charges per unit of the currency, in US dollars (the upstream's `price_rate`). */
        costRate: z
          .string()
          .trim()
          .regex(/^\d{1,9}(\.\d{1,12})?$/, "must be a decimal rate such as 1.05")
          .optional(),
      })
      .optional(),
  })
  .superRefine((p, ctx) => {
    if (!p.country && (!p.coverage || p.coverage.length === 0)) {
      ctx.addIssue({ code: "custom", path: ["country"], message: "give a country, or a coverage list for a regional product" });
    }
    if (p.packages.length === 0 && !p.range) {
      ctx.addIssue({ code: "custom", path: ["packages"], message: "give at least one package or a range" });
    }
    const exponent = currencyExponent(p.currency);
    if (exponent === undefined) return;
    const seen = new Set<string>();
    p.packages.forEach((pkg, i) => {
      if (seen.has(pkg.value)) {
        ctx.addIssue({ code: "custom", path: ["packages", i, "value"], message: `duplicate package ${JSON.stringify(pkg.value)}` });
      }
      seen.add(pkg.value);
      const face = pkg.faceValue ?? pkg.value;
      const minor = parseMinorUnits(face, exponent);
      if (minor === undefined || minor <= 0n) {
        ctx.addIssue({
          code: "custom",
          path: ["packages", i, pkg.faceValue ? "faceValue" : "value"],
          message: `face value ${JSON.stringify(face)} is not a positive amount in ${p.currency} (at most ${exponent} decimals)`,
        });
      }
    });
    if (p.range) {
      const min = parseMinorUnits(p.range.min, exponent);
      const max = parseMinorUnits(p.range.max, exponent);
      const step = parseMinorUnits(p.range.step, exponent);
      if (min === undefined || max === undefined || step === undefined || min <= 0n || step <= 0n || max < min) {
        ctx.addIssue({ code: "custom", path: ["range"], message: `range must have 0 < min <= max and step > 0 in ${p.currency}` });
      }
    }
    if (p.kind === "topup" && p.recipientType !== "phone_number") {
      ctx.addIssue({ code: "custom", path: ["recipientType"], message: "a top-up needs recipientType phone_number" });
    }
  });

export type ProductInput = z.input<typeof productInputSchema>;
export type ValidProductInput = z.output<typeof productInputSchema>;

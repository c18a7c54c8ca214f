import { z } from "zod";
import { regionParam, isIccid } from "@/lib/catalog";

// The zod schemas of the /x402 query strings: the routes validate with them and the OpenAPI document
// (lib/openapi/x402.ts) shows them. Nothing here queries anything: the document and tests import them (the catalog's
// index they read the region and ICCID rules from loads its modules, which open nothing at import).

/** The query of the three search routes. */
export const x402SearchQuery = z.object({
  q: z
    .string()
    .max(100, "must be at most 100 characters")
    .optional()
    .meta({ description: "Words to look for (brand, name, country); `*` or nothing browses.", example: "steam" }),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code such as US")
    .optional()
    .meta({ description: "ISO 3166-1 alpha-2 country code (any case) that narrows the results.", example: "US" }),
  region: regionParam,
  page: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(10_000).default(1).meta({ description: "Page number, from 1." }),
  limit: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "must be 1 to 50")
    .max(50, "must be 1 to 50")
    .default(20)
    .meta({ description: "Products per page." }),
});

/** The query of GET /x402/my/orders. */
export const myOrdersQuery = z.object({
  start: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .default(0)
    .meta({ description: "How many orders to skip (newest first)." }),
  limit: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be 1 to 100")
    .max(100, "must be 1 to 100")
    .default(50)
    .meta({ description: "Orders per page." }),
});

// products/detail and invoice/status check their few parameters by hand (lib/agents/x402/product.ts, x402-status.ts);
// these schemas say the same (the OpenAPI document and the Bazaar discovery show them), and lib/openapi/x402.test.ts checks that they agree with those checks.
export const productDetailQuery = z.object({
  slug: z.string().min(1).max(80).meta({ description: "The product slug from a search result.", example: "steam-us" }),
  iccid: z
    .string()
    .regex(/^89\d{17,18}$/)
    .refine(isIccid, "must be an ICCID with a valid check digit")
    .optional()
    .meta({ description: "An eSIM the wallet holds (19-20 digits, Luhn check digit): offers its top-up packages.", example: "8944500102198304826" }),
});
export const invoiceStatusQuery = z.object({
  invoice_id: z.string().min(1).meta({ description: "The invoice id from invoice/create.", example: "inv_01K9Z8Y7X6W5V4T3S2R1Q0P9N8" }),
});
export const invoicePayBody = z.object({
  invoice_id: z.string().min(1).meta({ description: "The invoice to pay.", example: "inv_01K9Z8Y7X6W5V4T3S2R1Q0P9N8" }),
});

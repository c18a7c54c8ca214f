import { z } from "zod";

// The zod schemas of the /x402 query strings: the routes validate with them and the OpenAPI document
// (lib/openapi/x402.ts) shows them. Kept free of server modules so that the document and tests can import them.

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

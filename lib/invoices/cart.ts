import { z } from "zod";

/** At most this many items in one invoice (the spec's limit). */
export const MAX_ITEMS = 15;
export const MAX_RECIPIENT_LENGTH = 100;
/** The payment of one invoice: at least 0.01 and at most 1000 USDC (atomic units). */
export const MIN_INVOICE_USDC = 10_000n;
export const MAX_INVOICE_USDC = 1_000_000_000n;

export const cartItemSchema = z.object({
  product_id: z.string({ error: "is required" }).trim().min(1, "is required").max(80),
  package_value: z.union([z.string(), z.number()], { error: "is required" }).transform((v) => String(v).trim()).pipe(z.string().min(1, "is required").max(120)),
  refill_input: z.string().trim().max(MAX_RECIPIENT_LENGTH, `must be at most ${MAX_RECIPIENT_LENGTH} characters`).optional(),
});

export const createInvoiceBody = z.object({
  items: z
    .array(cartItemSchema, { error: "is required: an array of {product_id, package_value, refill_input?}" })
    .min(1, "must hold at least one item")
    .max(MAX_ITEMS, `must hold at most ${MAX_ITEMS} items`),
});

export type CartItem = z.output<typeof cartItemSchema>;

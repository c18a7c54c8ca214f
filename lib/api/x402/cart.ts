import { z } from "zod";
import { COIN_METHODS } from "@/lib/merchants";

/** At most this many items in one invoice (the spec's limit). */
export const MAX_ITEMS = 15;
export const MAX_RECIPIENT_LENGTH = 100;
/** The payment of one invoice: at least 0.01 and at most 1000 USDC (atomic units). */
export const MIN_INVOICE_USDC = 10_000n;
export const MAX_INVOICE_USDC = 1_000_000_000n;
/** A public affiliate code (X-Service-Affiliate-Id): 6-16 letters and digits, case-sensitive. */
export const AFFILIATE_CODE = /^[A-Za-z0-9]{6,16}$/;

export const cartItemSchema = z
  .object({
    product_id: z.string({ error: "is required" }).trim().min(1, "is required").max(80).meta({ description: "The product slug.", example: "steam-us" }),
    package_value: z
      .union([z.string(), z.number()], { error: "is required" })
      .transform((v) => String(v).trim())
      .pipe(z.string().min(1, "is required").max(120))
      .meta({ description: "A package's `package_value` (or `package_id`) from product detail, or an amount of an open-range product.", example: "25" }),
    refill_input: z.string().trim().max(MAX_RECIPIENT_LENGTH, `must be at most ${MAX_RECIPIENT_LENGTH} characters`).optional().meta({
      description: "The recipient when the product needs one (E.164 phone number, e-mail), or the ICCID of an eSIM to top up.",
      example: "+14155550134",
    }),
  })
  .meta({ id: "CartItem", description: "One item of a cart: a product package for one recipient." });

/** The payment methods a shopper's invoice may name: lib/merchants' methods paid in USDC or ether. */
export const SHOPPER_PAYMENT_METHODS = COIN_METHODS;
/** An EVM address, or a Solana one (base58, 32 to 44 characters); which one a method takes is checked with it. */
const REFUND_ADDRESS = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;

export const createInvoiceBody = z
  .object({
    items: z
      .array(cartItemSchema, { error: "is required: an array of {product_id, package_value, refill_input?}" })
      .min(1, "must hold at least one item")
      .max(MAX_ITEMS, `must hold at most ${MAX_ITEMS} items`),
    gift_card_code: z
      .string()
      .max(64, "must be a gift card's code")
      .optional()
      .meta({ description: "A gift card of this shop: pays what it can; invoice/pay settles the rest (`amount_due_usdc`)." }),
    payment_method: z
      .enum(SHOPPER_PAYMENT_METHODS, { error: `must be one of ${SHOPPER_PAYMENT_METHODS.join(", ")}` })
      .optional()
      .meta({ description: "Pay by a transfer to the invoice's own address (`payment`): USDC, or ether (eth_*, ethereum)." }),
    refund_address: z
      .string()
      .regex(REFUND_ADDRESS, "must be an EVM address (0x and 40 hexadecimal digits), or a Solana one for usdc_solana")
      .optional()
      .meta({ description: "Where refunds of a payment by address go (default: the paying wallet, of its chain)." }),
  })
  .meta({
    id: "InvoiceCreateRequest",
    description: "The cart to quote: 1 to 15 items.",
    example: { items: [{ product_id: "steam-us", package_value: "25" }] },
  });

export type CartItem = z.output<typeof cartItemSchema>;

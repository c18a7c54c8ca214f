/**
 * The merchant API's shapes as zod schemas: the query strings the routes parse, the invoice request, and what every
 * route answers. The routes validate with the query schemas; the OpenAPI document (`lib/openapi/v2.ts`) is generated
 * from all of them; the route tests check every answer against them. Nothing here touches the database (the catalog's
 * and the merchants' indexes it reads values from open nothing at import), so the browser tests can import it too.
 */
import { z } from "zod";
import { regionParam } from "@/lib/catalog";
import { isInvoiceId } from "@/lib/platform/ids";
import { PAYMENT_METHODS } from "@/lib/merchants";
import { limitParam, startParam } from "./paging";

/** Why a `denied` invoice was refused: stored with a refusal (an auto_pay the balance could not cover), else it expired. */
export const DENIED_REASONS = ["expired", "balance_too_low"] as const;

// ---------------------------------------------------------------------------------------------------------------
// Requests

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** `start`, `limit` (1-50) and the filters of the product lists, from the query string. */
export const listQuery = z.object({
  start: startParam.meta({ description: "How many products to skip." }),
  limit: limitParam().meta({ description: "Products per page, 1 to 50." }),
  type: z.enum(["gift_card", "phone_refill", "esim"], { error: "must be gift_card, phone_refill or esim" }).optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as US")
    .optional()
    .meta({ description: "ISO 3166-1 alpha-2 country code; an eSIM matches any country it covers.", example: "US" }),
  category: z.string().trim().min(1).max(50, "must be at most 50 characters").optional(),
  region: regionParam,
  include_test_products: bool.default(false).meta({ description: "Include the test products (`test-gift-card-code`, …)." }),
});

export type ListQuery = z.infer<typeof listQuery>;

export const searchText = z
  .string({ error: "is required" })
  .trim()
  .min(1, "must be 1 to 100 characters")
  .max(100, "must be 1 to 100 characters")
  .meta({ description: "Free text: a brand, a product, a category or a country.", example: "steam" });

export const searchQuery = listQuery.extend({ q: searchText });

export const checkPhoneQuery = z.object({
  phone_number: z.string().meta({ description: "E.164, a + and the country code.", example: "+14155550134" }),
  operator: z.string().optional().meta({ description: "A top-up product id: is this operator able to serve the number?" }),
});

const invoiceCursor = z.string().refine(isInvoiceId, "must be an invoice id").optional();

/** `GET /invoices`: newest first; `after`/`before` an invoice id, or `start` for offset paging. */
export const listInvoicesQuery = z.object({
  limit: limitParam(),
  start: startParam.meta({ description: "Offset paging, for clients that count their way through lists." }),
  after: invoiceCursor.meta({ description: "Invoices older than this one (the next page)." }),
  before: invoiceCursor.meta({ description: "Invoices newer than this one (the previous page)." }),
});

export const listOrdersQuery = z.object({ start: startParam, limit: limitParam() });
export const listEsimsQuery = listOrdersQuery;

export const listDeliveriesQuery = z.object({
  status: z.enum(["pending", "delivered", "failed"], { error: "must be pending, delivered or failed" }).optional(),
  invoice_id: z.string().max(40).optional(),
  limit: limitParam(100, 20),
  cursor: z.string().max(200).optional().meta({ description: "From `meta._next`." }),
});

/** One line of `POST /invoices`: a product with a `value` or `package_id`, and its recipient where it needs one. */
export const invoiceItem = z.object({
  product_id: z.string().trim().min(1).max(80).meta({ example: "test-gift-card-code" }),
  value: z.union([z.number(), z.string()]).optional().meta({ description: "A package's value or an amount within the product's range.", example: 10 }),
  package_id: z.string().trim().min(1).max(200).optional().meta({ description: "A package's id (eSIM bundles), instead of `value`." }),
  quantity: z
    .unknown()
    .optional()
    .meta({ override: { type: "integer", minimum: 1, default: 1 } }),
  phone_number: z.string().trim().max(100).optional().meta({ description: "For phone top-ups, E.164." }),
  email: z.string().trim().max(100).optional().meta({ description: "For products delivered to an e-mail address." }),
  esim_id: z.string().trim().max(40).optional().meta({ description: "The ICCID of an eSIM bought before: tops it up." }),
});

/** The methods an invoice can be paid with (see `lib/merchants/payment-methods.ts`). */
export const paymentMethod = z.enum(PAYMENT_METHODS);

/** `POST /invoices` and `POST /esims`, as documented (the handler reads it field by field for the spec's error codes). */
export const invoiceRequest = z
  .object({
    products: z.array(invoiceItem).min(1).meta({ description: "1 to 20 items, quantities counted." }),
    payment_method: paymentMethod,
    webhook_url: z.url().nullable().optional().meta({ description: "Gets the invoice once it is final (Standard Webhooks signature)." }),
    auto_pay: z.boolean().optional().meta({ description: "With `balance` or `gift_card`: pay at once; a refusal keeps no invoice." }),
    gift_card_code: z.string().max(64).optional().meta({
      description:
        "A gift card of this shop, with any payment method: it pays what it can first (its value set aside until the invoice is paid, given back if it expires or is denied); the method pays the rest (`payment.gift_card` says what the card pays; with a USDC method `payment.amount_usdc` is the rest). A card that pays it all pays the invoice at once. Required with `gift_card`; refused for the shop's own gift card product (`invalid_param` naming `gift_card_code`).",
    }),
  })
  .meta({ id: "InvoiceRequest" });

// ---------------------------------------------------------------------------------------------------------------
// Answers

const time = z.iso.datetime();
const cents = z.number().int().meta({ description: "US cents." });

export const packageSchema = z.strictObject({
  id: z.string(),
  package_id: z.string(),
  value: z.string().meta({ description: "What `value` takes when buying it." }),
  amount: z.number().meta({ description: "Face value in the product's currency." }),
  price: cents,
  in_stock: z.boolean(),
  data_mb: z.number().int().nullable().optional(),
  validity_days: z.number().int().nullable().optional(),
});

export const productSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    type: z.enum(["gift_card", "phone_refill", "esim"]),
    brand: z.string(),
    country_code: z.string().nullable(),
    country_name: z.string().nullable(),
    currency: z.string(),
    categories: z.array(z.string()),
    created_time: time,
    recipient_type: z.enum(["none", "phone_number", "email"]),
    image: z.url(),
    in_stock: z.boolean(),
    is_test: z.boolean(),
    description: z.string(),
    redemption_instructions: z.string(),
    packages: z.array(packageSchema),
    range: z
      .strictObject({
        min: z.number(),
        max: z.number(),
        step: z.number(),
        price_rate: z.number().meta({ description: "US dollars per unit of the product's currency." }),
      })
      .optional(),
    coverage: z.array(z.string()).optional().meta({ description: "eSIMs: the countries covered." }),
    region: z.string().nullable().optional().meta({ description: "eSIMs: the region of a regional or global eSIM, null for a one-country eSIM." }),
  })
  .meta({ id: "Product" });

export const redemptionInfoSchema = z
  .strictObject({
    code: z.string().optional(),
    pin: z.string().optional(),
    link: z.string().optional(),
    instructions: z.string().optional(),
    other: z.string().optional(),
    expiration_date: z.string().optional(),
    extra_fields: z.record(z.string(), z.unknown()),
    barcode_format: z.string().optional(),
    barcode_value: z.string().optional(),
  })
  .meta({ id: "RedemptionInfo" });

export const orderSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(["created", "processing", "delivered", "failed", "refunded"]),
    product: z.strictObject({ id: z.string(), name: z.string(), value: z.string(), currency: z.string(), image: z.string().optional() }),
    invoice: z.strictObject({ id: z.string() }),
    price: cents,
    currency: z.literal("USD"),
    created_time: time,
    delivered_time: time.nullable(),
    recipient: z.string().optional(),
    error: z.string().optional(),
    refund: z.strictObject({ amount: cents, currency: z.literal("USD") }).optional(),
    redemption_info: redemptionInfoSchema.optional().meta({ description: "GET /orders/{id} of a delivered order." }),
  })
  .meta({ id: "Order" });

const coinAmount = z.string().regex(/^\d+(\.\d+)?$/);
const atomicAmount = z.string().regex(/^\d+$/);

/** An invoice paid by a plain transfer to its own address: how much, the URI, and what arrived (docs/merchant-api.md). */
const paymentByAddressFields = {
  coin: z.string().optional().meta({ description: "Paying by address: the coin sent (`USDC`, `ETH`)." }),
  reference: z.string().optional().meta({
    description:
      "USDC on Solana (Solana Pay): the invoice's own reference key. The transfer goes to `address` (the shop's wallet) with this key among its accounts, as a wallet does from `payment_uri`; a transfer without it is not tied to the invoice.",
  }),
  amount: coinAmount.optional().meta({ description: "Paying by address: what to send to `address`, in the coin." }),
  altcoinPrice: coinAmount.optional().meta({ description: "`amount`, under the name existing clients read." }),
  amount_atomic: atomicAmount.optional().meta({ description: "`amount` in the coin's smallest unit (USDC: millionths; ETH: wei)." }),
  exchange_rate: z.string().optional().meta({ description: "US dollars per coin, locked at creation for the invoice's lifetime." }),
  contract_address: z.string().optional().meta({ description: "A token's contract (USDC's on the network)." }),
  contractAddress: z.string().optional().meta({ description: "`contract_address`, under the name existing clients read." }),
  payment_uri: z.string().optional().meta({
    description:
      "The transfer as a URI, for a QR code: EIP-681 on EVM networks, a Solana Pay transfer request on Solana. A wallet that scans it fills in the coin, the address and the amount (and the reference).",
  }),
  paymentUri: z.string().optional().meta({ description: "`payment_uri`, under the name existing clients read." }),
  expires_time: time.optional().meta({
    description:
      "The end of the quote: a transfer seen on chain before this counts at exchange_rate. One seen later, before the invoice's own expires_time (an hour on), is honoured while the coin's price is at most 2% below exchange_rate (USDC always); else it is credited to the balance.",
  }),
  confirmations_required: z
    .number()
    .int()
    .optional()
    .meta({ description: "The blocks a payment's block needs, itself included, before it counts (the network's depth)." }),
  confirmations: z.number().int().optional().meta({ description: "What the payment seen so far has: `confirmations_required` once it counts." }),
  received: coinAmount.optional().meta({ description: "What arrived at `address` and counts (at the network's depth), all payments added up." }),
  received_atomic: atomicAmount.optional(),
  seen: coinAmount.optional().meta({ description: "What arrived, counted or still waiting for its depth." }),
  missing: coinAmount.optional().meta({ description: "While unpaid: what still has to arrive." }),
  credited: coinAmount.optional().meta({
    description: "Of `received`, what went to the account's balance: paid beyond the price, after the invoice was paid or ended, or short when it ended.",
  }),
};

export const invoiceSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(["unpaid", "processing", "complete", "denied", "payment_error"]).meta({
      description:
        "`complete`, `denied` and `payment_error` are final; each sends the webhook. `complete`: paid and every order final (check each order's status). `denied`: refused before payment, `status_reason` says why. `payment_error`: a payment was accepted (sent to the chain) and failed for good, and the invoice can no longer be paid. Nothing was charged for a `denied` or `payment_error` invoice; its orders are `failed`, with `error`.",
    }),
    status_reason: z.enum(DENIED_REASONS).optional().meta({
      description:
        "Why a `denied` invoice was refused: `expired` (not paid in time, no payment accepted for it), `balance_too_low` (an `auto_pay` the balance could not cover).",
    }),
    created_time: time,
    completed_time: time.nullable(),
    expires_time: time,
    webhook_url: z.string().nullable(),
    payment: z.strictObject({
      method: z.string().nullable(),
      currency: z.literal("USD"),
      price: cents,
      commission: z.number(),
      status: z.enum(["unpaid", "payment_confirmed", "paid", "expired", "denied", "payment_error"]),
      paid_time: time.nullable(),
      gift_card: cents.optional().meta({
        description:
          "What a gift card of the shop (`gift_card_code`) pays of `price`, in US cents; the rest is paid by the method (the balance, or USDC: `amount_usdc`).",
      }),
      network: z.string().optional().meta({ description: "USDC methods: the CAIP-2 network." }),
      transaction: z.string().nullable().optional(),
      network_name: z.string().optional(),
      address: z.string().optional().meta({
        description:
          "USDC methods: where a plain transfer pays the invoice: an address of this invoice's own (it ends at the shop's wallet), or, where the shop takes x402 only on that network, the shop's wallet. x402 payments go where their requirements say.",
      }),
      amount_usdc: z
        .string()
        .optional()
        .meta({ description: 'USDC methods: the amount paid in USDC, what `payment_url` asks: `price` less `gift_card` ("0" when the card paid it all).' }),
      payment_url: z.url().optional().meta({ description: "POST `payment_body` here with any x402 client." }),
      payment_body: z.strictObject({ invoice_id: z.string() }).optional(),
      payment_page: z.url().optional().meta({ description: "A page where a person pays with a browser wallet." }),
      ...paymentByAddressFields,
    }),
    orders: z.array(orderSchema),
  })
  .meta({ id: "Invoice" });

export const esimSchema = z
  .strictObject({
    id: z.string(),
    iccid: z.string(),
    product: z.strictObject({ id: z.string(), name: z.string() }),
    order: z.strictObject({ id: z.string() }),
    invoice: z.strictObject({ id: z.string() }),
    lpa: z.string(),
    barcode_format: z.literal("QRCODE"),
    barcode_value: z.string(),
    bundles: z.array(
      z.strictObject({
        order_id: z.string(),
        value: z.string(),
        data_mb: z.number().int().nullable(),
        validity_days: z.number().int().nullable(),
        activated_time: time.nullable(),
        expires_time: time.nullable(),
        active: z.boolean(),
      }),
    ),
  })
  .meta({ id: "Esim" });

export const webhookAttemptSchema = z
  .strictObject({
    attempt: z.number().int(),
    url: z.string(),
    sent_time: time,
    duration_ms: z.number().int().nullable(),
    status_code: z.number().int().nullable(),
    response_excerpt: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: "WebhookAttempt" });

export const webhookDeliverySchema = z
  .strictObject({
    id: z.string().meta({ description: "The `webhook-id` every attempt carries." }),
    invoice_id: z.string().nullable(),
    url: z.string(),
    event_type: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    event_time: time.meta({ description: "When the invoice became final." }),
    created_time: time,
    attempts: z.number().int(),
    next_attempt_time: time.nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    delivered_time: time.nullable(),
    payload: z.unknown().meta({ description: "What is POSTed: the invoice object." }),
    last_attempt: webhookAttemptSchema.nullable().optional(),
    attempt_log: z.array(webhookAttemptSchema).optional(),
  })
  .meta({ id: "WebhookDelivery" });

export const balanceSchema = z.strictObject({ balance: cents, currency: z.literal("USD") });

/** `POST /gift-card-batches`: how many cards, each of what value in which currency. */
export const giftCardBatchRequest = z
  .strictObject({
    quantity: z.number().int().min(1).max(1000).meta({ description: "How many cards: 1 to 1,000 (`invalid_quantity` otherwise)." }),
    value: z
      .union([z.number(), z.string()])
      .meta({ description: "Each card's value in `currency` (`25`, `\"9.99\"`): worth 1.00 to 1,000.00 USD at today's rate (`invalid_value` otherwise)." }),
    currency: z.string().meta({ description: "An ISO 4217 code with a current exchange rate: USD, EUR, GBP, … (`invalid_currency` otherwise)." }),
  })
  .meta({ id: "GiftCardBatchRequest" });

export const giftCardSchema = z
  .strictObject({
    id: z.string(),
    code: z.string().meta({ description: "The code to redeem: 20 characters in groups of four. Shown to the batch's merchant only." }),
    currency: z.string(),
    value: z.string().meta({ description: "The value it was issued with, in `currency`." }),
    balance: z.string().meta({ description: "What is left to spend (value set aside for an open invoice is not counted)." }),
  })
  .meta({ id: "GiftCard" });

export const giftCardBatchSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(["processing", "complete", "partial", "failed"]).meta({
      description:
        "`processing`: paid, cards being issued. `complete`: every card issued. `partial`: issuing failed after some cards, `failed`: before any; the price of the cards not issued went back to the balance (`refunded`).",
    }),
    quantity: z.number().int(),
    issued: z.number().int(),
    value: z.string().meta({ description: "Each card's value, in `currency`." }),
    currency: z.string(),
    price: cents.meta({
      description: "What the batch took from the balance, in US cents: each card's value at the day's rate, rounded up to the cent, times the quantity.",
    }),
    refunded: cents.meta({ description: "US cents given back to the balance for cards not issued." }),
    created_time: time,
    completed_time: time.nullable(),
    cards: z.array(giftCardSchema).optional().meta({ description: "The cards issued so far, in order (one batch's answer; not in lists)." }),
  })
  .meta({ id: "GiftCardBatch" });

export const listGiftCardBatchesQuery = z.object({ limit: limitParam(), after: z.string().max(200).optional() });

export const phoneCheckSchema = z.strictObject({
  phone_number: z.string(),
  supported: z.boolean(),
  operators: z.array(z.strictObject({ id: z.string(), name: z.string(), country_code: z.string().nullable() })),
});

export const redeliverySchema = z.strictObject({ attempt: webhookAttemptSchema, endpoint_disabled: z.boolean(), delivery: webhookDeliverySchema });

// ---------------------------------------------------------------------------------------------------------------
// The envelope

const endpoint = z.string().meta({ description: "The path under /api/v2 that answered." });
const next = z.url().optional().meta({ description: "The next page: follow it until it is absent." });

/** `meta` of a single object: the endpoint and the object's id. */
export const idMeta = z.strictObject({ _endpoint: endpoint, id: z.string().optional() });

/** `meta` of the product lists. */
export const productPageMeta = z.strictObject({
  _endpoint: endpoint,
  start: z.number().int(),
  limit: z.number().int(),
  count: z.number().int(),
  total: z.number().int(),
  include_test_products: z.enum(["true", "false"]),
  _next: next,
  hint: z.string().optional(),
});

export const invoicePageMeta = z.strictObject({
  _endpoint: endpoint,
  limit: z.number().int(),
  count: z.number().int(),
  after: z.string().optional(),
  before: z.string().optional(),
  _next: next,
});

export const orderPageMeta = z.strictObject({
  _endpoint: endpoint,
  start: z.number().int(),
  limit: z.number().int(),
  count: z.number().int(),
  total: z.number().int(),
  _next: next,
});
export const cursorPageMeta = z.strictObject({ _endpoint: endpoint, limit: z.number().int(), count: z.number().int(), _next: next });

/** A success: `{meta, data}`. */
export const envelope = <D extends z.ZodType, M extends z.ZodType>(data: D, meta: M) => z.strictObject({ meta, data });

/** `GET /ping` answers `pong` in both shapes that existing clients read. */
export const pongSchema = z.strictObject({
  meta: z.strictObject({ _endpoint: endpoint }),
  message: z.literal("pong"),
  data: z.strictObject({ message: z.literal("pong") }),
});

/** An error: `error_code` (one of the listed codes), a message for people, and fields that some codes add. */
export const errorSchema = (codes: readonly [string, ...string[]]) => errorShape(z.enum(codes));

/** The error as the document shows it, once: each answer's description lists its codes. */
export const errorDocSchema = errorShape(z.string().meta({ description: "What went wrong, for programs: see each answer's codes." })).meta({ id: "Error" });

function errorShape(code: z.ZodType) {
  return z.looseObject({
    meta: z.strictObject({ _endpoint: endpoint, id: z.string().optional() }),
    error_code: code,
    message: z.string(),
    required: cents.optional().meta({ description: "`balance_too_low`: the invoice's price." }),
    available: cents.optional().meta({ description: "`balance_too_low`: the balance." }),
    currency: z.literal("USD").optional(),
    invoice_id: z.string().optional().meta({ description: "An `auto_pay` refusal: the invoice that was made and cancelled." }),
  });
}

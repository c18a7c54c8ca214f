import { z } from "zod";
import { PRODUCT_KINDS, RECIPIENT_TYPES } from "@/lib/catalog";
import { invoiceStatus, orderStatus } from "@/lib/platform/db/schema";
import { idPattern } from "@/lib/platform/ids";

// The response bodies of the /x402 API as the route handlers write them (lib/agents/x402/*.ts and app/x402/**): the
// OpenAPI document shows them, and the tests check real answers against them. Objects are strict, so that a field
// a route adds without documenting it fails the tests.

const EXAMPLE_ORIGIN = "https://shop.example";
const INVOICE_ID = "inv_01K9Z8Y7X6W5V4T3S2R1Q0P9N8";
const ORDER_ID = "ord_01K9Z8Y7X6W5V4T3S2R1Q0P9N9";
const WALLET = "eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7";

export const UsdcAmount = z
  .string()
  .regex(/^\d+(\.\d{1,6})?$/)
  .meta({ id: "UsdcAmount", description: "USDC (pegged 1:1 to the US dollar) as a decimal string, at most 6 decimals.", example: "10.5" });

export const UsdcAtomic = z
  .string()
  .regex(/^\d+$/)
  .meta({ id: "UsdcAtomic", description: 'USDC in atomic units (6 decimals) as a decimal string: 1 USDC is "1000000".', example: "10500000" });

const DateTime = z.iso.datetime().meta({ description: "ISO 8601 date and time, UTC.", example: "2026-05-01T12:00:00.000Z" });
const Url = z.url().meta({ description: "An absolute URL.", example: `${EXAMPLE_ORIGIN}/x402/checkout/info` });
const InvoiceId = z.string().regex(idPattern("inv")).meta({ id: "InvoiceId", description: "An invoice id: `inv_` and a ULID.", example: INVOICE_ID });
const OrderId = z.string().regex(idPattern("ord")).meta({ description: "An order id (one item of an invoice): `ord_` and a ULID.", example: ORDER_ID });
const WalletId = z.string().meta({ description: "The wallet as a CAIP-10 account id: `<chain id>:<address>`.", example: WALLET });
const ProductKind = z.enum(PRODUCT_KINDS).meta({ id: "ProductKind", description: "What a product is.", example: "gift_card" });

export const NextStep = z
  .strictObject({
    method: z.enum(["GET", "POST"]),
    url: Url,
    body: z.record(z.string(), z.unknown()).optional().meta({ description: "The JSON body to send when the next call is a POST." }),
  })
  .meta({
    id: "NextStep",
    description: "The following call of the purchase flow: its method, absolute URL and, for a POST, a suggested body.",
    example: { method: "POST", url: `${EXAMPLE_ORIGIN}/x402/invoice/pay`, body: { invoice_id: INVOICE_ID } },
  });

const INVOICE_STATUSES: Record<(typeof invoiceStatus.enumValues)[number], string> = {
  unpaid: "created, waiting for its payment until `expires_at`",
  paid: "payment settled, fulfilment not started yet",
  fulfilling: "orders are being delivered",
  complete: "every order is final (delivered, or failed and refunded): `delivery_status` and `error_code` tell",
  expired: "not paid in time, no payment accepted for it: create a new invoice",
  denied: "refused before payment (merchant API invoices)",
  payment_error: "a payment was accepted (sent to the chain) and failed for good, and the invoice can no longer be paid: nothing was charged",
};
/** How far a paid invoice's orders are delivered (lib/checkout/roll-up.ts writes it from its orders). */
export type DeliveryStatus = "pending" | "delivering" | "all_delivered" | "partially_delivered" | "failed";
/** Why a complete invoice is not fully delivered. */
export type InvoiceErrorCode = "PARTIAL_FULFILMENT" | "ALL_FAILED";

const DELIVERY_STATUSES: Record<DeliveryStatus, string> = {
  pending: "nothing delivered yet",
  delivering: "orders are being delivered",
  all_delivered: "every order was delivered",
  partially_delivered: "some orders failed (they are refunded)",
  failed: "every order failed (they are refunded)",
};
const INVOICE_ERROR_CODES: Record<InvoiceErrorCode, string> = {
  PARTIAL_FULFILMENT: "some orders failed",
  ALL_FAILED: "every order failed",
};

/** A zod enum from a table of values and meanings; the meanings go into the description. */
function described<T extends string>(meanings: Record<T, string>, what: string, id: string) {
  const values = Object.keys(meanings) as [T, ...T[]];
  const lines = values.map((v) => `- \`${v}\`: ${meanings[v]}`).join("\n");
  return z.enum(values).meta({ id, description: `${what}\n\n${lines}`, example: values[0] });
}

export const InvoiceStatus = described(INVOICE_STATUSES, "The invoice's status.", "InvoiceStatus");
export const DeliveryStatusSchema = described(DELIVERY_STATUSES, "How far the invoice's orders were delivered.", "DeliveryStatus");
const InvoiceErrorCodeSchema = described(INVOICE_ERROR_CODES, "Why a complete invoice is not fully delivered.", "InvoiceErrorCode");
const OrderStatus = z.enum(orderStatus.enumValues).meta({
  id: "OrderStatus",
  description:
    "One order's status: `created` -> `processing` -> `delivered`, or `failed` -> `refunded`. The orders of an invoice that ended unpaid (`expired`, `payment_error`) are `failed` (`error_code` `expired` or `payment_error`), with nothing to refund.",
  example: "delivered",
});

// --- Errors -------------------------------------------------------------------------------------------------------

const ErrorBase = z.strictObject({
  code: z.string().meta({ description: "A stable machine code to branch on." }),
  message: z.string().meta({ description: "What went wrong and what to do, for people." }),
  field: z.string().optional().meta({ description: "The parameter or body field at fault (`slug`, `items.0.refill_input`)." }),
});

/** Optional details some errors add to `{code, message, field}`. */
export const ErrorDetails = {
  reason: z.string().optional().meta({ description: "Why a recipient was refused.", example: "invalid_phone" }),
  recipient: z.enum(RECIPIENT_TYPES).optional().meta({ description: "The kind of recipient the product needs." }),
  packages: z
    .array(z.string())
    .optional()
    .meta({ description: "The package values the product offers.", example: ["10", "25", "50"] }),
  range: z.strictObject({ min: z.string(), max: z.string(), step: z.string() }).optional().meta({ description: "The amounts an open-range product takes." }),
  suggestions: z
    .array(z.strictObject({ slug: z.string(), name: z.string(), url: Url }))
    .optional()
    .meta({ description: "Products with a similar slug." }),
  status: InvoiceStatus.optional(),
  networks: z
    .array(z.string())
    .optional()
    .meta({ description: "The networks (CAIP-2) this shop takes payments on.", example: ["eip155:8453"] }),
  retry_after: z.number().int().optional().meta({ description: "Seconds to wait before trying again.", example: 12 }),
  limit: z.number().int().optional().meta({
    description:
      "RESERVATION_LIMIT: the stocked codes the unpaid invoices of one wallet (or of one client address, or of one network: an IPv6 /48, an IPv4 /24, as the message says) may hold in all.",
    example: 10,
  }),
  package_limit: z.number().int().optional().meta({
    description:
      "RESERVATION_LIMIT: the stocked codes of one package the unpaid invoices of one wallet (or of one client address, or of one network) may hold; for a network, at most its share of the package's unsold codes.",
    example: 5,
  }),
  transaction: z.string().nullable().optional().meta({ description: "The transaction that carries a payment still waiting for the chain, when known." }),
  network: z.string().optional().meta({ description: "The network (CAIP-2) of that payment.", example: "eip155:8453" }),
};

/**
 * The body of every error but a 402: `{code, message, field?}` and the details the codes listed carry. Its `code` is
 * one of `codes`.
 */
export function errorBody(codes: readonly [string, ...string[]], details: Record<string, z.ZodType> = {}) {
  return ErrorBase.extend({ code: z.enum(codes).meta({ description: "A stable machine code to branch on." }), ...details }).meta({
    description: "An error: a code to branch on, a message for people, and the field at fault.",
  });
}

export const RateLimited = errorBody(["RATE_LIMITED"], { retry_after: z.number().int().meta({ description: "Seconds to wait before trying again." }) }).meta({
  id: "RateLimited",
  description: "Too many requests from this client address or wallet: wait `retry_after` seconds (also in Retry-After).",
  example: { code: "RATE_LIMITED", message: "Too many requests: try again in 12 seconds.", retry_after: 12 },
});

export const Unavailable = errorBody(["SHUTTING_DOWN", "SERVICE_UNAVAILABLE"]).meta({
  id: "Unavailable",
  description:
    "For now the shop cannot serve the call: `SHUTTING_DOWN`, the server is restarting and takes no new payments (nothing was charged); `SERVICE_UNAVAILABLE`, its database is briefly unreachable. Try again after Retry-After.",
  example: { code: "SERVICE_UNAVAILABLE", message: "The shop is briefly unavailable: its database is not answering. Try again in a few seconds." },
});

export const InternalError = errorBody(["INTERNAL_ERROR"]).meta({
  id: "InternalError",
  description: "An unexpected error on the shop's side; nothing was charged for it. Try again.",
  example: { code: "INTERNAL_ERROR", message: "Something went wrong on our side. Try again." },
});

// --- x402 ---------------------------------------------------------------------------------------------------------

const Resource = z.looseObject({
  url: Url,
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

export const PaymentRequirements = z
  .looseObject({
    scheme: z.literal("exact"),
    network: z.string().meta({ description: "CAIP-2 network id.", example: "eip155:8453" }),
    asset: z.string().meta({ description: "The USDC token (EVM contract address, Solana mint).", example: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }),
    amount: UsdcAtomic,
    payTo: z.string().meta({ description: "The shop's address that receives the payment.", example: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" }),
    maxTimeoutSeconds: z.number().int(),
    extra: z.record(z.string(), z.unknown()).meta({ description: "Scheme data: for EVM the token's EIP-712 domain `{name, version}`." }),
  })
  .meta({
    id: "PaymentRequirements",
    description: "One way to pay: the exact scheme on one network, the amount in USDC atomic units, and where to.",
    example: {
      scheme: "exact",
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: "2000",
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      maxTimeoutSeconds: 300,
      extra: { name: "USD Coin", version: "2" },
    },
  });

export const PaymentRequired = z
  .looseObject({
    x402Version: z.literal(2),
    error: z.string().meta({ description: "Why the call was not served: no payment, or what was wrong with the one sent.", example: "Payment required" }),
    resource: Resource,
    accepts: z.array(PaymentRequirements).meta({ description: "Pay one of these: the same amount on every network the payment may be made on." }),
    extensions: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "`bazaar`: x402 Bazaar discovery metadata of the route (`info.input`: method, query or body with an example; `info.output`: an example answer; `schema`: their JSON Schema), for catalogs and agents. x402 clients echo it in the payment.",
    }),
  })
  .meta({
    id: "PaymentRequired",
    description:
      "An x402 v2 payment request. The same JSON, base64-encoded, is in the PAYMENT-REQUIRED header. Sign a payment for one of `accepts` and send the call again with it in PAYMENT-SIGNATURE.",
  });

export const SiwxChallenge = z
  .looseObject({
    info: z.looseObject({
      domain: z.string().meta({ example: "shop.example" }),
      uri: Url,
      statement: z.string().optional(),
      version: z.literal("1"),
      nonce: z.string().meta({ description: "Single use, issued by this shop." }),
      issuedAt: DateTime,
      expirationTime: DateTime.optional(),
      resources: z.array(z.string()).optional(),
    }),
    supportedChains: z.array(
      z.looseObject({ chainId: z.string().meta({ example: "eip155:8453" }), type: z.enum(["eip191", "ed25519"]), signatureScheme: z.string().optional() }),
    ),
    schema: z.record(z.string(), z.unknown()).meta({ description: "JSON Schema of the signed payload to send in SIGN-IN-WITH-X." }),
  })
  .meta({
    id: "SiwxChallenge",
    description:
      "A sign-in-with-x challenge (CAIP-122 / SIWE): sign a message with these fields on one of `supportedChains` and send it, base64 JSON, in the SIGN-IN-WITH-X header. The nonce is valid 5 minutes, once.",
  });

export const SignInRequired = z
  .strictObject({
    x402Version: z.literal(2),
    error: z.string().meta({ example: "Sign-in required: send SIGN-IN-WITH-X or X-Access-Token" }),
    resource: Resource,
    accepts: z.array(PaymentRequirements).max(0).meta({ description: "Empty: this call is not paid, it needs a signed-in wallet." }),
    extensions: z.strictObject({ "sign-in-with-x": SiwxChallenge }),
  })
  .meta({
    id: "SignInRequired",
    description:
      'An x402 402 that asks for a wallet sign-in instead of a payment (also base64-encoded in PAYMENT-REQUIRED): the challenge is in `extensions["sign-in-with-x"]`.',
  });

export const PaymentOrSignInRequired = z
  .looseObject({
    x402Version: z.literal(2),
    error: z.string().meta({
      description: "Why the call was not served: no payment, what was wrong with the one sent, or why the SIGN-IN-WITH-X sent was refused.",
      example: "Sign-in refused (expired): The sign-in message is more than 5 minutes old: ask for a new challenge",
    }),
    resource: Resource,
    accepts: z.array(PaymentRequirements).meta({ description: "Pay one of these: the same amount on every network the payment may be made on." }),
    extensions: z
      .looseObject({ "sign-in-with-x": SiwxChallenge })
      .meta({ description: "`sign-in-with-x`: a fresh sign-in challenge; `bazaar`: x402 Bazaar discovery metadata of the route (see PaymentRequired)." }),
  })
  .meta({
    id: "PaymentOrSignInRequired",
    description:
      'An x402 v2 payment request of a route that also takes a wallet sign-in (also base64-encoded in PAYMENT-REQUIRED): pay one of `accepts` (PAYMENT-SIGNATURE), and/or sign the challenge in `extensions["sign-in-with-x"]` (SIGN-IN-WITH-X), as the route says.',
  });

// --- Bodies -------------------------------------------------------------------------------------------------------

export const CheckoutInfo = z
  .strictObject({
    service: z.string().meta({ example: "x402 Storefront" }),
    version: z.string().meta({ example: "1.0.0" }),
    network_mode: z.enum(["devnet", "testnet", "mainnet"]),
    networks: z.array(
      z.strictObject({
        network: z.string().meta({ example: "eip155:8453" }),
        name: z.string().meta({ example: "Base" }),
        asset: z.string().meta({ description: "The USDC token: EVM contract address or Solana mint." }),
        decimals: z.number().int().meta({ example: 6 }),
        pay_to: z.string().meta({ description: "The shop's receiving address on this network." }),
      }),
    ),
    routes: z.array(
      z.strictObject({
        method: z.enum(["GET", "POST"]),
        path: z.string().meta({ example: "/x402/gift-cards/search" }),
        url: Url,
        fee_usd: UsdcAmount.nullable().meta({
          description: "The fixed fee per call; null when the route has none (or, for invoice/pay, the invoice's price).",
        }),
        fee_atomic: UsdcAtomic.nullable(),
        headers: z.array(z.string()).meta({ description: "The request headers the route reads." }),
        query: z.array(z.string()).optional(),
        description: z.string(),
      }),
    ),
    openapi: Url.meta({ description: "This API's OpenAPI document.", example: `${EXAMPLE_ORIGIN}/x402/openapi.json` }),
    wallet_rules: z.array(z.string()),
    next_step: NextStep,
  })
  .meta({ id: "CheckoutInfo", description: "The route catalog: networks, every /x402 route with its fee and headers, and the wallet rules." });

const ProductSummary = z
  .strictObject({
    slug: z.string().meta({ description: "The product id: give it to products/detail and invoice/create.", example: "steam-us" }),
    name: z.string().meta({ example: "Steam US" }),
    brand: z.string().meta({ example: "Steam" }),
    country: z.string().nullable().meta({ description: "ISO 3166-1 alpha-2 country, or null for a regional product.", example: "US" }),
    coverage: z.array(z.string()).meta({ description: "Countries where it works (eSIMs).", example: ["US"] }),
    region: z.string().nullable(),
    where: z.string().meta({ description: "Where it works, for people.", example: "United States" }),
    currency: z.string().meta({ description: "Currency of the face values.", example: "USD" }),
    in_stock: z.boolean(),
    price_from_usd: UsdcAmount.nullable(),
    price_to_usd: UsdcAmount.nullable(),
    image: Url,
    next_step: NextStep,
  })
  .meta({ id: "ProductSummary", description: "A product as search lists it; `next_step` is its detail." });

export const SearchResults = z
  .strictObject({
    query: z.strictObject({ q: z.string().meta({ example: "steam" }), kind: ProductKind, country: z.string().nullable(), region: z.string().nullable() }),
    total: z.number().int().meta({ description: "Products matching, over all pages." }),
    page: z.number().int(),
    limit: z.number().int(),
    products: z.array(ProductSummary),
    hint: z.string().optional().meta({ description: "How to search again when nothing matched." }),
    next_step: NextStep,
  })
  .meta({ id: "SearchResults", description: "Matching products, best first; `next_step` is the first product's detail (or a browse search)." });

const LineItem = z
  .strictObject({ product_id: z.string(), package_value: z.string(), refill_input: z.string().optional() })
  .meta({ id: "LineItem", description: "A cart item as invoice/create takes it.", example: { product_id: "steam-us", package_value: "25" } });

export const ProductDetail = z
  .strictObject({
    product: z.strictObject({
      slug: z.string(),
      name: z.string(),
      kind: ProductKind,
      brand: z.string(),
      country: z.string().nullable(),
      coverage: z.array(z.string()),
      region: z.string().nullable(),
      currency: z.string(),
      categories: z.array(z.string()),
      description: z.string(),
      redemption_instructions: z.string(),
      image: Url,
      in_stock: z.boolean(),
    }),
    recipient: z.strictObject({
      required: z.boolean().meta({ description: "Whether invoice/create needs `refill_input` for this product." }),
      type: z.enum(RECIPIENT_TYPES),
      field: z.literal("refill_input").nullable(),
      description: z.string().nullable(),
      phone_prefixes: z
        .array(z.string())
        .optional()
        .meta({ description: "The phone number prefixes a top-up operator serves.", example: ["+234803"] }),
      esim_topup: z
        .strictObject({ field: z.literal("refill_input"), description: z.string(), iccid: z.string().optional() })
        .optional()
        .meta({ description: "eSIMs: how to add a bundle to an eSIM the wallet holds instead of buying a new one." }),
    }),
    packages: z.array(
      z.strictObject({
        package_value: z.string().meta({ description: "Give it as `package_value` to invoice/create.", example: "25" }),
        package_id: z.string().meta({ description: "The package's id (`<slug><&><value>`), also accepted as `package_value`.", example: "steam-us<&>25" }),
        face_value: z.string().meta({ example: "25" }),
        currency: z.string(),
        price_usd: UsdcAmount,
        price_usdc: UsdcAmount,
        price_usdc_atomic: UsdcAtomic,
        in_stock: z.boolean(),
        data_mb: z.number().int().nullable().optional().meta({ description: "eSIM data in MB; null is unlimited." }),
        validity_days: z.number().int().nullable().optional(),
      }),
    ),
    range: z
      .strictObject({
        min: z.string(),
        max: z.string(),
        step: z.string(),
        currency: z.string(),
        min_price_usd: UsdcAmount,
        max_price_usd: UsdcAmount,
        note: z.string(),
      })
      .nullable()
      .meta({ description: "Open-amount products: any face value from min to max in steps of step." }),
    suggested_line_item: LineItem.nullable(),
    next_step: NextStep,
  })
  .meta({ id: "ProductDetail", description: "A product with its packages and recipient rules; `next_step` creates an invoice with the suggested line item." });

/** An invoice paid by a transfer to its own address (`payment_method` at creation): what to send, and what arrived. */
export const AddressPayment = z
  .strictObject({
    method: z.string(),
    network: z.string(),
    network_name: z.string(),
    address: z.string().meta({ description: "The invoice's own address (Solana: the shop's wallet, with `reference`): send the transfer here." }),
    reference: z.string().optional().meta({ description: "USDC on Solana: the invoice's Solana Pay reference, among the transfer's accounts." }),
    coin: z.enum(["USDC", "ETH"]),
    amount: z.string().meta({ description: "What to send, in the coin." }),
    altcoinPrice: z.string(),
    amount_atomic: z.string().meta({ description: "What to send, in the coin's smallest unit." }),
    exchange_rate: z.string().meta({ description: "US dollars per coin, locked until expires_time." }),
    contract_address: z.string().optional(),
    contractAddress: z.string().optional(),
    payment_uri: z.string().meta({ description: "EIP-681 (Solana Pay on Solana): the transfer, for a wallet or a QR code." }),
    paymentUri: z.string(),
    expires_time: DateTime.meta({ description: "The quote's end; a transfer up to an hour later is honoured while the price holds." }),
    confirmations_required: z.number().int(),
    confirmations: z.number().int(),
    received: z.string().meta({ description: "Counted at the network's depth, all transfers added up." }),
    received_atomic: z.string(),
    seen: z.string(),
    missing: z.string(),
    credited: z.string().meta({ description: "Received beyond what paid the invoice (refunded to refund_address)." }),
    refund_address: z.string().nullable(),
    transaction: z.string().nullable(),
    payer: z.string().nullable(),
  })
  .meta({ id: "AddressPayment", description: "How to pay the invoice by a plain transfer to its own address, and what arrived." });

export const InvoiceCreated = z
  .strictObject({
    invoice_id: InvoiceId,
    price_usdc: UsdcAmount,
    price_usd: UsdcAmount,
    price_usdc_atomic: UsdcAtomic,
    gift_card_usdc: UsdcAmount.optional().meta({ description: "Paid by the gift card." }),
    amount_due_usdc: UsdcAmount.meta({ description: "What invoice/pay settles." }),
    status: z.enum(["unpaid", "paid"]).meta({ description: "`paid`: a gift card paid it all." }),
    networks: z.array(z.strictObject({ network: z.string(), name: z.string() })).meta({ description: "Where the invoice can be paid." }),
    expires_in_minutes: z.number().int(),
    expires_at: DateTime,
    payment: AddressPayment.optional().meta({ description: "With `payment_method`: the transfer that pays it." }),
    items: z.array(
      z.strictObject({
        order_id: OrderId,
        product_id: z.string(),
        name: z.string(),
        package_value: z.string(),
        price_usdc: UsdcAmount,
        refill_input: z.string().optional(),
      }),
    ),
    next_step: NextStep,
  })
  .meta({ id: "InvoiceCreated", description: "The invoice with its locked price; `next_step` pays it (POST /x402/invoice/pay)." });

export const InvoicePaid = z
  .strictObject({
    accepted: z.literal(true),
    invoice_id: InvoiceId,
    message: z.string(),
    transaction: z.string().meta({ description: "The settlement transaction." }),
    network: z.string(),
    next_step: NextStep,
  })
  .meta({ id: "InvoicePaid", description: "The payment settled; fulfilment has started: poll `next_step` (invoice/status)." });

const Bundle = z.strictObject({
  value: z.string(),
  data_mb: z.number().int().nullable().meta({ description: "null is unlimited." }),
  validity_days: z.number().int().nullable(),
});

export const Redemption = z
  .strictObject({
    order_id: OrderId,
    product_id: z.string(),
    package_value: z.string(),
    code: z.string().optional(),
    pin: z.string().optional(),
    link: z.string().optional(),
    instructions: z.string().optional(),
    other: z.string().optional(),
    expiration_date: z.string().optional().meta({ description: "`YYYY-MM-DD`." }),
    extra_fields: z.record(z.string(), z.string()),
    barcode_format: z.literal("QRCODE").optional(),
    barcode_value: z.string().optional().meta({ description: "What the QR code encodes: an eSIM's LPA activation string." }),
    iccid: z.string().optional(),
    esim: z
      .union([
        z.strictObject({ iccid: z.string(), lpa: z.string(), smdp: z.string(), matching_id: z.string(), bundle: Bundle }),
        z.strictObject({ iccid: z.string(), topup: z.literal(true), bundle: Bundle }),
      ])
      .optional(),
    topup: z.strictObject({ phone_number: z.string(), operator: z.string(), reference: z.string() }).optional(),
  })
  .meta({ id: "Redemption", description: "What one delivered order gives: codes, PINs, links, an eSIM profile or a top-up receipt." });

export const InvoiceStatusBody = z
  .strictObject({
    invoice_id: InvoiceId,
    status: InvoiceStatus,
    delivery_status: DeliveryStatusSchema,
    error_code: InvoiceErrorCodeSchema.optional(),
    price_usdc: UsdcAmount,
    gift_card_usdc: UsdcAmount.optional().meta({ description: "Paid by the gift card named at invoice/create." }),
    amount_due_usdc: UsdcAmount.meta({ description: "What invoice/pay settles: the price less what the gift card paid." }),
    created_at: DateTime,
    expires_at: DateTime,
    paid_at: DateTime.nullable(),
    completed_at: DateTime.nullable(),
    payment: z
      .union([
        z
          .strictObject({ network: z.string().nullable(), transaction: z.string(), payer: z.string().nullable() })
          .meta({ id: "SettledPayment", description: "The payment that settled the invoice: its network, transaction and payer." }),
        AddressPayment,
      ])
      .nullable(),
    orders: z.array(
      z.strictObject({
        order_id: OrderId,
        product_id: z.string(),
        name: z.string(),
        package_value: z.string(),
        currency: z.string().meta({ description: "Currency of `package_value` when it is an amount (ISO 4217).", example: "GBP" }),
        price_usdc: UsdcAmount,
        status: OrderStatus,
        error_code: z.string().optional(),
        delivered_at: DateTime.nullable(),
        refund: z.strictObject({ amount_usdc: UsdcAmount, transaction: z.string().nullable() }).optional(),
        codes_available: z.boolean(),
      }),
    ),
    redemption_info: z
      .array(Redemption)
      .optional()
      .meta({ description: "Only for the paying wallet (SIGN-IN-WITH-X or its X-Access-Token) once the invoice is complete." }),
    next_step: NextStep.optional().meta({ description: "Unpaid: pay it. Paid or fulfilling: poll again." }),
  })
  .meta({ id: "InvoiceStatusBody", description: "An invoice's status, its orders, and for the paying wallet the redemption info." });

export const Session = z
  .strictObject({
    token: z.string().meta({ description: "Send it in X-Access-Token." }),
    token_header: z.literal("X-Access-Token"),
    expires_in: z.number().int().meta({ description: "Seconds the token is valid.", example: 86400 }),
    wallet: WalletId,
    next_step: NextStep,
  })
  .meta({ id: "Session", description: "A session token for the signed-in wallet: it waives micro-fees and sign-ins until it expires." });

export const WalletOrders = z
  .strictObject({
    wallet: WalletId,
    orders: z.array(
      z.strictObject({
        order_id: OrderId,
        invoice_id: InvoiceId,
        invoice_status: InvoiceStatus,
        product_id: z.string(),
        name: z.string(),
        kind: ProductKind,
        package_value: z.string(),
        currency: z.string().meta({ description: "Currency of `package_value` when it is an amount (ISO 4217).", example: "GBP" }),
        price_usdc: UsdcAmount,
        status: OrderStatus,
        error_code: z.string().optional(),
        created_at: DateTime,
        paid_at: DateTime.nullable(),
        delivered_at: DateTime.nullable(),
        codes_available: z.boolean(),
        status_url: Url.meta({ description: "invoice/status of the order's invoice: where its codes are read." }),
      }),
    ),
    start: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: "WalletOrders", description: "The wallet's orders, newest first, one page." });

const WalletBundle = Bundle.extend({ order_id: OrderId, activated_at: DateTime.nullable(), expires_at: DateTime.nullable() });

export const WalletEsims = z
  .strictObject({
    wallet: WalletId,
    esims: z.array(
      z.strictObject({
        iccid: z.string().meta({ example: "8944500102198304826" }),
        product_id: z.string(),
        name: z.string(),
        order_id: OrderId,
        invoice_id: InvoiceId,
        lpa: z.string().meta({ description: "The LPA activation string." }),
        bundles: z.array(WalletBundle).meta({ description: "Active bundles." }),
        past_bundles: z.array(WalletBundle).meta({ description: "Expired bundles." }),
        topup_options_url: Url.meta({ description: "products/detail with this eSIM's ICCID: the packages that top it up." }),
      }),
    ),
  })
  .meta({ id: "WalletEsims", description: "The wallet's eSIMs with their bundles." });

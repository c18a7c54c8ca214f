import { sql } from "drizzle-orm";
import { bigint, boolean, check, customType, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const productKind = pgEnum("product_kind", ["gift_card", "esim", "topup"]);
export const recipientType = pgEnum("recipient_type", ["none", "phone_number", "email"]);
/**
 * Who fulfils a product's orders: the demo supplier, codes the operator imported (`inventory_codes`), the upstream
 * supplier (UPSTREAM_API_URL), bought on demand (`upstream_purchases`), or the shop itself (`store`: its own gift card,
 * issued to the order in `gift_cards`).
 */
export const supplier = pgEnum("supplier", ["demo", "inventory", "upstream", "store"]);

export const products = pgTable(
  "products",
  {
    /** The product's slug: also its public id in both APIs. */
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    kind: productKind("kind").notNull(),
    brand: text("brand").notNull(),
    /** The brand normalized as search normalizes a query ("google play"): exact brand matches rank first. */
    brandKey: text("brand_key").notNull(),
    /** ISO 3166-1 alpha-2; null for a regional eSIM, whose countries are in `coverage`. */
    country: text("country"),
    /** Every country where the product can be used (the single country for most products). */
    coverage: text("coverage").array().notNull(),
    /** Name of the region for regional products ("Europe"). */
    region: text("region"),
    currency: text("currency").notNull(),
    categories: text("categories").array().notNull(),
    description: text("description").notNull(),
    redemptionInstructions: text("redemption_instructions").notNull(),
    image: text("image").notNull(),
    recipientType: recipientType("recipient_type").notNull().default("none"),
    /** Number prefixes (E.164, with +) served by a top-up operator. */
    phonePrefixes: text("phone_prefixes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    inStock: boolean("in_stock").notNull().default(true),
    /** Set to `inventory` by the first stock import; a catalog import leaves it alone. */
    supplier: supplier("supplier").notNull().default("demo"),
    isTest: boolean("is_test").notNull().default(false),
    /** Higher sells more; orders featured lists and breaks ranking ties. */
    popularity: integer("popularity").notNull().default(0),
    /** Open amount in minor units of `currency`, for products that take any value in a range. */
    rangeMinMinor: bigint("range_min_minor", { mode: "bigint" }),
    rangeMaxMinor: bigint("range_max_minor", { mode: "bigint" }),
    rangeStepMinor: bigint("range_step_minor", { mode: "bigint" }),
    /**
     * What the upstream supplier charges for an amount of the open range (upstream products): US dollars per unit of
     * `currency`, an exact decimal string. An amount is never sold below that cost plus the margin.
     */
    rangeCostRate: text("range_cost_rate"),
    /** Name and brand, normalized: the short text that typo-tolerant matching compares words against. */
    titleKey: text("title_key").notNull().default(""),
    /** Normalized words the search matches: name, brand, categories, country and region names, kind. */
    searchText: text("search_text").notNull(),
    searchVector: tsvector("search_vector")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, search_text)`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("products_kind_idx").on(t.kind, t.isTest),
    index("products_coverage_idx").using("gin", t.coverage),
    index("products_brand_key_idx").on(t.brandKey),
    index("products_title_trgm_idx").using("gin", t.titleKey.op("gin_trgm_ops")),
    index("products_search_vector_idx").using("gin", t.searchVector),
    index("products_popularity_idx").on(t.popularity),
  ],
);

/**
 * Exchange rates read from FX_RATES_URL (lib/catalog/fx-store.ts), one row per day of the feed: US dollars per one
 * unit of each currency, exact decimal strings. Every server prices with the newest row; none is used once older
 * than FX_MAX_AGE_HOURS.
 */
export const fxRates = pgTable("fx_rates", {
  /** The day the rates are of (the feed's own date). */
  asOf: text("as_of").primaryKey(),
  /** The feed's base currency (EUR for the ECB). */
  base: text("base").notNull(),
  usdPerUnit: jsonb("usd_per_unit").$type<Record<string, string>>().notNull(),
  /** Where they were read. */
  source: text("source").notNull(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rates a feed served that moved some currency further from the stored (applied) rates than FX_MAX_MOVE_PERCENT: held
 * here, out of pricing, until the operator confirms them (they are then stored in fx_rates) or the feed comes back
 * within bounds. One row per day of the feed.
 */
export const fxHeldRates = pgTable("fx_held_rates", {
  asOf: text("as_of").primaryKey(),
  base: text("base").notNull(),
  usdPerUnit: jsonb("usd_per_unit").$type<Record<string, string>>().notNull(),
  source: text("source").notNull(),
  /** The day of the applied rates they were compared with. */
  against: text("against").notNull(),
  /** Each currency that moved too far: its applied and its fetched rate (US dollars per unit) and the move in percent. */
  moves: jsonb("moves").$type<{ currency: string; from: string; to: string; percent: string }[]>().notNull(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
});

export const productPackages = pgTable(
  "product_packages",
  {
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The denomination as shown and as given back when buying: "25", or an eSIM bundle "3GB, 30 Days". */
    value: text("value").notNull(),
    /** Face value in minor units of the product's currency. */
    faceValueMinor: bigint("face_value_minor", { mode: "bigint" }).notNull(),
    /** eSIM bundles: data in MB (null = unlimited) and validity in days. */
    dataMb: integer("data_mb"),
    validityDays: integer("validity_days"),
    /** What the upstream supplier charges for it, in US cents (upstream products): the price never goes below it plus the margin. */
    costCents: bigint("cost_cents", { mode: "bigint" }),
    /** Whether the supplier can deliver this package now (the upstream says so per package); the product's own flag covers them all. */
    inStock: boolean("in_stock").notNull().default(true),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.value] })],
);

/** Small facts about this deployment's data (for example when the demo catalog was seeded). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-in nonces this server issued: each may be used once, before it expires. */
export const siwxNonces = pgTable(
  "siwx_nonces",
  {
    nonce: text("nonce").primaryKey(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** The wallet that used it (CAIP-10: `<chainId>:<address>`). */
    usedBy: text("used_by"),
  },
  (t) => [index("siwx_nonces_expires_idx").on(t.expiresAt)],
);

export const invoiceStatus = pgEnum("invoice_status", ["unpaid", "paid", "fulfilling", "complete", "expired", "denied", "payment_error"]);
export const orderStatus = pgEnum("order_status", ["created", "processing", "delivered", "failed", "refunded"]);

/** Affiliates whose public codes may be sent in X-Service-Affiliate-Id. */
export const affiliates = pgTable("affiliates", {
  /** The public code: 6-16 letters and digits, case-sensitive. */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A cart with a locked USDC price, paid once by one wallet. */
export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    status: invoiceStatus("status").notNull().default("unpaid"),
    /** The paying wallet, chain-free (`eip155:0xChecksummed` or `solana:<address>`): only it sees codes. */
    payer: text("payer").notNull(),
    /** The locked price in USDC atomic units: exactly what payment must settle. */
    priceUsdc: bigint("price_usdc", { mode: "bigint" }).notNull(),
    affiliateId: text("affiliate_id").references(() => affiliates.id),
    source: text("source").notNull().default("x402"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    deliveryStatus: text("delivery_status").notNull().default("pending"),
    errorCode: text("error_code"),
    paymentNetwork: text("payment_network"),
    paymentTx: text("payment_tx"),
    paymentPayer: text("payment_payer"),
    /** A payment being settled holds the invoice: no second settlement can start meanwhile. */
    paymentClaim: text("payment_claim"),
    paymentClaimUntil: timestamp("payment_claim_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Merchant API invoices: the merchant, how it pays (`balance`, `usdc_base`, …), its price in USD cents, and where its final state is sent. */
    merchantId: text("merchant_id").references(() => merchants.id, { onDelete: "restrict" }),
    paymentMethod: text("payment_method"),
    priceCents: bigint("price_cents", { mode: "bigint" }),
    webhookUrl: text("webhook_url"),
    /** What gift cards pay of the price, in USD cents (their holds: gift_card_holds); the rest is paid as usual. */
    giftCardCents: bigint("gift_card_cents", { mode: "bigint" }),
    /**
     * A wallet's invoice that reserves stocked codes: the client address that created it (its rate-limit key, an IPv4
     * address or an IPv6 /64). Wallets are free, addresses are not: unpaid invoices hold a bounded number of codes per
     * address as well as per wallet.
     */
    clientAddress: text("client_address"),
    /**
     * The same invoice's client network (an IPv6 /48 or an IPv4 /24): one holder of many addresses holds a bounded
     * number of codes too, and at most a share of each package's stock.
     */
    clientNetwork: text("client_network"),
  },
  (t) => [
    index("invoices_payer_idx").on(t.payer, t.createdAt),
    index("invoices_client_address_idx")
      .on(t.clientAddress)
      .where(sql`${t.clientAddress} IS NOT NULL AND ${t.status} = 'unpaid'`),
    index("invoices_client_network_idx")
      .on(t.clientNetwork)
      .where(sql`${t.clientNetwork} IS NOT NULL AND ${t.status} = 'unpaid'`),
    index("invoices_status_expiry_idx").on(t.status, t.expiresAt),
    index("invoices_merchant_idx")
      .on(t.merchantId, t.createdAt, t.id)
      .where(sql`${t.merchantId} IS NOT NULL`),
  ],
);

/** One item of an invoice: one product package for one recipient. Product facts are copied, so history survives catalog edits. */
export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    productId: text("product_id").notNull(),
    productName: text("product_name").notNull(),
    productKind: productKind("product_kind").notNull(),
    packageValue: text("package_value").notNull(),
    faceValueMinor: bigint("face_value_minor", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    priceUsdc: bigint("price_usdc", { mode: "bigint" }).notNull(),
    recipient: text("recipient"),
    /** The product's supplier when the order was placed: an inventory order holds one reserved code. */
    supplier: supplier("supplier").notNull().default("demo"),
    status: orderStatus("status").notNull().default("created"),
    errorCode: text("error_code"),
    /** Codes, PINs, links, eSIM activation: shown only to the paying wallet. */
    redemption: jsonb("redemption"),
    // The order is its own fulfilment job: due from `run_at` (set when the invoice is paid), claimed by a worker
    // until `locked_until`, retried with backoff.
    runAt: timestamp("run_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /**
     * The claim's holder on PostgreSQL: the key of the advisory lock its server process holds on a session of its own
     * while it lives (lib/platform/db/presence.ts). A claim whose holder's lock is gone was made by a process that ended, and is
     * freed before `locked_until` (lib/fulfilment/claim.ts releaseDeadClaims). Null: no holder is known (PGlite, Vercel),
     * the claim holds until `locked_until`.
     */
    lockedBy: integer("locked_by"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** The refund of a failed order: amount in USDC atomic units and its transaction, when paid back. */
    refundUsdc: bigint("refund_usdc", { mode: "bigint" }),
    refundTx: text("refund_tx"),
    /**
     * The refund transfer as signed and stored before it is sent (status still `failed` until it lands): its wire bytes
     * (base64) and what tells when it can no longer land (EVM: its nonce; Solana: its last valid block height). A retry
     * sends these same bytes again; only a transfer the chain shows can never land is replaced.
     */
    refundRaw: text("refund_raw"),
    refundExpiry: text("refund_expiry"),
    /**
     * Earlier versions of the stored EVM transfer (their hashes), each sent again at a higher fee as `refund_tx` when
     * the chain's fee left it waiting: same nonce, so at most one of them lands, and the refund watches them all.
     */
    refundSuperseded: text("refund_superseded").array(),
    /** Merchant API orders: the price in USD cents (what the balance paid), and the refund to the balance, if any. */
    priceCents: bigint("price_cents", { mode: "bigint" }),
    refundCents: bigint("refund_cents", { mode: "bigint" }),
    /** Of a failed order's price, what went back to the gift card that paid its invoice (US cents); the rest is refunded as paid. */
    refundGiftCardCents: bigint("refund_gift_card_cents", { mode: "bigint" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [index("orders_invoice_idx").on(t.invoiceId, t.position), index("orders_due_idx").on(t.status, t.runAt)],
);

/**
 * Codes the operator imported for a product package. Available while `order_id` is null; an unpaid invoice's order
 * reserves one (released when the invoice expires); delivery marks it `sold_at`. A code is never given to two orders:
 * `order_id` is unique, and a reservation takes a free row under `FOR UPDATE SKIP LOCKED`.
 */
export const inventoryCodes = pgTable(
  "inventory_codes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    packageValue: text("package_value").notNull(),
    code: text("code").notNull(),
    pin: text("pin"),
    /** `YYYY-MM-DD`, when the card itself expires. */
    expirationDate: text("expiration_date"),
    /** The import that brought it (file name and time), for the operator. */
    batch: text("batch").notNull(),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
    orderId: text("order_id").references(() => orders.id, { onDelete: "restrict" }),
    reservedAt: timestamp("reserved_at", { withTimezone: true }),
    soldAt: timestamp("sold_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("inventory_codes_code_idx").on(t.productId, t.packageValue, t.code),
    uniqueIndex("inventory_codes_order_idx").on(t.orderId),
    index("inventory_codes_free_idx")
      .on(t.productId, t.packageValue, t.id)
      .where(sql`${t.orderId} IS NULL`),
  ],
);

/**
 * An order bought from the upstream supplier (lib/supply/purchase.ts), written before the upstream is first asked.
 * The upstream invoice's Idempotency-Key is the order's id (`<order id>.<attempt>` after a definite refusal, when
 * nothing was bought), so a crash or a retry never buys twice; a `balance_too_low` holds the order from `held_since`
 * for UPSTREAM_HOLD_MINUTES.
 */
export const upstreamPurchases = pgTable(
  "upstream_purchases",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull().default(0),
    /** How many times the upstream was asked about it: each wait is longer than the last. */
    asks: integer("asks").notNull().default(0),
    /** `buying` (asked, outcome not known yet), `held` (balance too low), `delivered`, `failed`. */
    status: text("status").notNull().default("buying"),
    /**
     * The body sent under the current attempt's key (JSON text, as sent), kept before it is first sent: a retry sends
     * the same bytes, so a changed setting (the webhook URL) never makes the upstream refuse the key as reused.
     */
    request: text("request"),
    upstreamInvoiceId: text("upstream_invoice_id"),
    upstreamOrderId: text("upstream_order_id"),
    /** What the upstream charged, in US cents. */
    costCents: bigint("cost_cents", { mode: "bigint" }),
    heldSince: timestamp("held_since", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("upstream_purchases_status_idx").on(t.status), index("upstream_purchases_invoice_idx").on(t.upstreamInvoiceId)],
);

export const merchantStatus = pgEnum("merchant_status", ["active", "suspended"]);

/** A merchant of the merchant API (`/api/v2`) and the dashboard. */
export const merchants = pgTable("merchants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  status: merchantStatus("status").notNull().default("active"),
  /** Without API access, every authenticated API call answers 403. */
  apiAccess: boolean("api_access").notNull().default(true),
  /**
   * The balance in USD cents: the sum of the ledger, kept here so that a debit is one conditional update
   * (`balance_cents >= price`) in the transaction that appends its ledger entry. Never negative.
   */
  balanceCents: bigint("balance_cents", { mode: "bigint" })
    .notNull()
    .default(sql`0`),
  /** The Standard Webhooks signing secret (`whsec_…`); during a rotation the previous one signs too, until `previous_until`. */
  webhookSecret: text("webhook_secret").notNull(),
  webhookSecretPrevious: text("webhook_secret_previous"),
  webhookSecretPreviousUntil: timestamp("webhook_secret_previous_until", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const credentialKind = pgEnum("credential_kind", ["business", "personal"]);

/**
 * API credentials. Business: `api_id` (public, here `public_id`) + `api_secret` over HTTP Basic. Personal: a token over
 * HTTP Bearer, `<public_id>.<secret>`. Only the SHA-256 of the secret is kept (secrets are 256-bit random: a slow hash
 * adds nothing), compared in constant time.
 */
export const merchantCredentials = pgTable(
  "merchant_credentials",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    kind: credentialKind("kind").notNull(),
    name: text("name").notNull(),
    publicId: text("public_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("merchant_credentials_public_idx").on(t.publicId), index("merchant_credentials_merchant_idx").on(t.merchantId, t.createdAt)],
);

export const ledgerKind = pgEnum("ledger_kind", ["credit", "debit", "refund"]);

/** The merchant's balance history, append-only: credits (top-ups), debits (invoices paid), refunds (failed orders). */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "restrict" }),
    kind: ledgerKind("kind").notNull(),
    /** Positive; the kind says which way it moves the balance. */
    amountCents: bigint("amount_cents", { mode: "bigint" }).notNull(),
    /** The balance right after this entry. */
    balanceAfterCents: bigint("balance_after_cents", { mode: "bigint" }).notNull(),
    invoiceId: text("invoice_id").references(() => invoices.id, { onDelete: "restrict" }),
    orderId: text("order_id").references(() => orders.id, { onDelete: "restrict" }),
    /** What it was: "Admin credit", a payment's transaction, … */
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_merchant_idx").on(t.merchantId, t.id),
    // One refund per order, whatever retries happen.
    uniqueIndex("ledger_entries_refund_idx")
      .on(t.orderId)
      .where(sql`${t.kind} = 'refund'`),
  ],
);

/** The first answer to a creation request sent with an `Idempotency-Key`, replayed for the same key and body. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** Method and path, and the SHA-256 of the body: the same key with another request is refused. */
    endpoint: text("endpoint").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    /**
     * The invoice the request made, bound in the transaction that made it: from then on the key means that invoice,
     * and a retry after a failure completes and answers it instead of making (and paying) another.
     */
    invoiceId: text("invoice_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Answers of paid /x402 calls whose payment carried a payment identifier (the x402 `payment-identifier` extension):
 * an agent that lost the answer sends the same payment with the same id again and gets this answer, never a second
 * charge; the same id with another payment or route is refused.
 */
export const paidAnswers = pgTable(
  "paid_answers",
  {
    paymentId: text("payment_id").notNull(),
    /**
     * Whose id it is: the payer the payment verified as (`eip155:0x…`, `solana:…`). An id is its payer's own: the same
     * id from another payer is another answer, never a conflict.
     */
    payer: text("payer").notNull(),
    /** SHA-256 of the route and the signed payment (its accepted requirement and payload). */
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: text("body").notNull(),
    contentType: text("content_type").notNull(),
    /** The settlement receipt (PAYMENT-RESPONSE) the answer carried. */
    paymentResponse: text("payment_response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The id first: a retry is looked up by its id and payment alone, before its payer is verified.
  (t) => [primaryKey({ columns: [t.paymentId, t.payer] }), index("paid_answers_created_idx").on(t.createdAt)],
);

export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", ["pending", "delivered", "failed"]);

/**
 * Webhook messages (the outbox): written in the transaction that makes an invoice final, sent by a worker with the
 * same `webhook-id` (`id`) on every attempt, retried with backoff until delivered or given up.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    invoiceId: text("invoice_id").references(() => invoices.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").notNull(),
    /** When the event happened (the invoice became final), as opposed to when each attempt was sent. */
    eventAt: timestamp("event_at", { withTimezone: true }).notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    /** Every attempt, the worker's and the merchant's: the number of the latest in the log. */
    attempts: integer("attempts").notNull().default(0),
    /** Of those, the redeliveries the merchant asked for: they do not use up the automatic retry schedule. */
    manualAttempts: integer("manual_attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** The claim's holder on PostgreSQL (as `orders.locked_by`): a gone holder's claim is freed at once. */
    lockedBy: integer("locked_by"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_merchant_idx").on(t.merchantId, t.createdAt),
    index("webhook_deliveries_invoice_idx").on(t.invoiceId),
  ],
);

/** Every attempt to send a webhook message: where, when, and what came back. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    url: text("url").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** Null when no HTTP answer came (timeout, refused connection, blocked address). */
    statusCode: integer("status_code"),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

/** A merchant's webhook URL, disabled after it answered 410 or kept failing, until the merchant re-enables it. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.url] })],
);

export const topupStatus = pgEnum("topup_status", ["pending", "credited", "failed"]);

/**
 * USDC payments that top up a merchant's balance from the dashboard. One row per settled (or broadcast) transaction:
 * the unique (network, transaction) is what makes a payment credit once, whatever is retried or replayed.
 * `pending`: the settlement timed out after the transaction was sent; the chain decides (see reconcilePendingTopups).
 */
export const balanceTopups = pgTable(
  "balance_topups",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "restrict" }),
    amountCents: bigint("amount_cents", { mode: "bigint" }).notNull(),
    amountUsdc: bigint("amount_usdc", { mode: "bigint" }).notNull(),
    status: topupStatus("status").notNull(),
    network: text("network").notNull(),
    transaction: text("transaction").notNull(),
    payer: text("payer"),
    ledgerEntryId: bigint("ledger_entry_id", { mode: "number" }).references(() => ledgerEntries.id, { onDelete: "restrict" }),
    /** While pending: after this the authorization can no longer land, and the top-up is marked failed. */
    holdUntil: timestamp("hold_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("balance_topups_transaction_idx").on(t.network, t.transaction),
    index("balance_topups_merchant_idx").on(t.merchantId, t.createdAt),
    index("balance_topups_pending_idx")
      .on(t.status)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const settlementStatus = pgEnum("settlement_status", ["settling", "pending", "settled", "failed"]);

/**
 * Every x402 payment the shop settles, identified by the payment itself before it is settled (EVM: token, payer and
 * authorization nonce; Solana: the hash of the transaction's message): the unique (network, identity) is what lets
 * one payment be used once, for one invoice, fee or top-up, whichever server sees it.
 * `settling`: a server is settling it and holds it until `lease_until`; `pending`: the outcome is not known yet (sent,
 * not confirmed), the chain decides before `valid_until`; `settled`: it landed, and its purpose was applied in the same
 * transaction; `failed`: it did not and cannot land from here (the payment can be offered again).
 */
export const settlements = pgTable(
  "settlements",
  {
    id: text("id").primaryKey(),
    network: text("network").notNull(),
    identity: text("identity").notNull(),
    /** What the payment pays for: `invoice` (reference: invoice id), `fee` (the route), `topup` (the merchant). */
    purpose: text("purpose").notNull(),
    reference: text("reference").notNull(),
    /** What applying the payment later needs (a top-up's amount in cents). */
    details: jsonb("details").$type<Record<string, string>>(),
    payer: text("payer"),
    amountUsdc: bigint("amount_usdc", { mode: "bigint" }).notNull(),
    status: settlementStatus("status").notNull(),
    /** The transaction that carries it, once known (Solana: known before it is sent). */
    transaction: text("transaction"),
    /** Where the payment must arrive: it lands only by a transfer of `amount_usdc` from the payer to this address. */
    payTo: text("pay_to"),
    /** EVM: a block number seen before its transaction was first sent; no earlier block can hold it (events are looked for from here). */
    sentBlock: bigint("sent_block", { mode: "bigint" }),
    /** An open settlement is asked of the chain again from then on (backing off while the chain cannot decide it). */
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }),
    /** How many times the reconciler asked the chain without a decision. */
    checks: integer("checks").notNull().default(0),
    /** After this the payment can no longer land: EVM `validBefore`, Solana the expiry of its blockhash. */
    validUntil: timestamp("valid_until", { withTimezone: true }).notNull(),
    /** A server settling the payment holds it until then (and extends it while it works); then the reconciler may. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** The lease's holder on PostgreSQL (as `orders.locked_by`): a gone holder's lease is freed at once. */
    leaseHolder: integer("lease_holder"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("settlements_identity_idx").on(t.network, t.identity),
    index("settlements_open_idx")
      .on(t.status, t.leaseUntil)
      .where(sql`${t.status} IN ('settling', 'pending')`),
    index("settlements_due_idx")
      .on(t.nextCheckAt)
      .where(sql`${t.status} IN ('settling', 'pending')`),
    index("settlements_reference_idx").on(t.purpose, t.reference),
    // A transaction looked up by its id: the Solana Pay watcher leaves out those of x402 settlements.
    index("settlements_transaction_idx").on(t.transaction),
    // A payer's payments in flight, weighed against its balance as a payment is recorded.
    index("settlements_payer_idx")
      .on(t.network, sql`lower(${t.payer})`)
      .where(sql`${t.status} IN ('settling', 'pending')`),
  ],
);

/**
 * The next nonce of each sending wallet (`evm-nonce:<network>:<address>`), read and written only under that wallet's
 * lock (lib/platform/db/key-lock.ts), so that several servers sharing a gas wallet take its nonces one after another without
 * asking the chain each time. The chain's count is read again after an error or an idle while (see evm-signer.ts).
 */
export const signerNonces = pgTable("signer_nonces", {
  key: text("key").primaryKey(),
  nextNonce: bigint("next_nonce", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const giftCardBatchStatus = pgEnum("gift_card_batch_status", ["processing", "complete", "partial", "failed"]);

/**
 * A merchant's batch of the shop's own gift cards, paid from its balance when it is created (`price_cents`, at the
 * exchange rate of that moment). Its cards are issued in chunks after the payment; a batch whose issuing keeps
 * failing ends `partial` (some cards) or `failed` (none), and the value of the cards never issued goes back to the
 * balance (`refund_cents`, once).
 */
export const giftCardBatches = pgTable(
  "gift_card_batches",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "restrict" }),
    quantity: integer("quantity").notNull(),
    /** Each card's value in minor units of `currency`. */
    valueMinor: bigint("value_minor", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    priceCents: bigint("price_cents", { mode: "bigint" }).notNull(),
    refundCents: bigint("refund_cents", { mode: "bigint" }),
    status: giftCardBatchStatus("status").notNull().default("processing"),
    issued: integer("issued").notNull().default(0),
    /** Failed issuing attempts so far, the last one's reason, and when the next may run (a worker claims it until then). */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("gift_card_batches_merchant_idx").on(t.merchantId, t.createdAt, t.id),
    index("gift_card_batches_due_idx")
      .on(t.runAt)
      .where(sql`${t.status} = 'processing'`),
  ],
);

/**
 * One of the shop's own gift cards. Its code is never stored: `code_hash` (HMAC-SHA256 under the shop's card key)
 * finds it, and `code_sealed` (AES-256-GCM under a key derived from the same secret) lets its batch's merchant read it
 * again (a card bought as a product: its order's redemption holds another sealed copy, opened for the buyer); a dump of
 * the database alone reveals neither. `balance_minor` is the value still free to spend: a hold moves
 * value out of it in the same statement that checks it, so no unit is ever spent twice.
 */
export const giftCards = pgTable(
  "gift_cards",
  {
    id: text("id").primaryKey(),
    codeHash: text("code_hash").notNull(),
    codeSealed: text("code_sealed").notNull(),
    /** The code's last four characters, to tell cards apart in lists. */
    codeLast4: text("code_last4").notNull(),
    /** The merchant's batch it was issued in; null for a card bought as a product (`order_id`). */
    batchId: text("batch_id").references(() => giftCardBatches.id, { onDelete: "restrict" }),
    /** The card's place in its batch (0-based): issuing again after a crash never makes a card twice. */
    position: integer("position"),
    /** The order that bought it (the catalog's store gift card): one card per order, issued as the order is delivered. */
    orderId: text("order_id").references(() => orders.id, { onDelete: "restrict" }),
    currency: text("currency").notNull(),
    valueMinor: bigint("value_minor", { mode: "bigint" }).notNull(),
    balanceMinor: bigint("balance_minor", { mode: "bigint" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("gift_cards_code_idx").on(t.codeHash),
    uniqueIndex("gift_cards_batch_idx").on(t.batchId, t.position),
    uniqueIndex("gift_cards_order_idx").on(t.orderId),
    // A card comes from a batch or from an order, never both, never neither.
    check("gift_cards_origin", sql`(${t.batchId} IS NULL) <> (${t.orderId} IS NULL)`),
  ],
);

export const giftCardHoldStatus = pgEnum("gift_card_hold_status", ["held", "spent", "released"]);

/**
 * Value of a card set aside for one invoice: `held` while the invoice is open, `spent` once it is paid, `released`
 * (given back to the card) when it expires or is denied. One hold per card and invoice; each change of status is a
 * conditional update, so a release happens once whatever races.
 */
export const giftCardHolds = pgTable(
  "gift_card_holds",
  {
    giftCardId: text("gift_card_id")
      .notNull()
      .references(() => giftCards.id, { onDelete: "restrict" }),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    /** Taken from the card, in its currency's minor units. */
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    /** What it pays of the invoice, in USD cents. */
    coversCents: bigint("covers_cents", { mode: "bigint" }).notNull(),
    /** Of that, given back to the card for failed orders (US cents): a failed order is refunded to the card first. */
    refundedCents: bigint("refunded_cents", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    status: giftCardHoldStatus("status").notNull().default("held"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.giftCardId, t.invoiceId] }), index("gift_card_holds_invoice_idx").on(t.invoiceId)],
);

/** An amount in a coin's smallest unit (wei, USDC's millionths), beyond bigint's 9.2e18 (9.2 ether in wei). */
const coinAmount = customType<{ data: bigint; driverData: string }>({
  dataType: () => "numeric(78, 0)",
  toDriver: (v) => v.toString(),
  fromDriver: (v) => BigInt(v),
});

/**
 * An invoice's own address on one network (lib/payments/address-watch.ts): a forwarder at a CREATE2 address that
 * receives a plain transfer of the invoice's coin, watched at the network's depth, and flushed to `pay_to` once what
 * it received is decided. Never reused: the address is the invoice's salt's, and an invoice id is never reused.
 */
export const paymentAddresses = pgTable(
  "payment_addresses",
  {
    network: text("network").notNull(),
    /** Checksummed. */
    address: text("address").notNull(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    /** The invoice's payment method (`usdc_base`, `eth_base`, …). */
    method: text("method").notNull(),
    /** `native` (ether) or the token's contract (checksummed). */
    asset: text("asset").notNull(),
    currency: text("currency").notNull(),
    decimals: integer("decimals").notNull(),
    payTo: text("pay_to").notNull(),
    salt: text("salt").notNull(),
    factory: text("factory").notNull(),
    /** What the invoice asks, in the coin's smallest unit, at the rate locked at creation (USD per coin, decimal text). */
    amountDue: coinAmount("amount_due").notNull(),
    exchangeRate: text("exchange_rate").notNull(),
    /** Blocks a payment's block must have on top of it, itself included, before it counts. */
    confirmations: integer("confirmations").notNull(),
    /**
     * Until when the locked rate is offered (the payment's `expires_time`). The invoice itself ends LATE_GRACE_MS
     * later: a payment that arrives in between is honoured while the coin's price is within tolerance of the rate.
     */
    quoteExpiresAt: timestamp("quote_expires_at", { withTimezone: true }),
    /**
     * A shopper's invoice: where the payer asked its refunds to go (never the sending address, which may be an
     * exchange's). A merchant's invoice has none: its refunds and extras go to the balance.
     */
    refundAddress: text("refund_address"),
    /** What it received at the network's depth (what it holds plus what it flushed), at `checked_block`. */
    received: coinAmount("received")
      .notNull()
      .default(sql`0`),
    /** What it held at `checked_block`: what a flush has to move. */
    held: coinAmount("held")
      .notNull()
      .default(sql`0`),
    /** What it received at the head, counted or not; and the head block at which that amount first showed. */
    seen: coinAmount("seen")
      .notNull()
      .default(sql`0`),
    seenBlock: bigint("seen_block", { mode: "bigint" }),
    checkedBlock: bigint("checked_block", { mode: "bigint" }),
    /** Of `received`: what paid the invoice, and what went on as extra (over-paid, late, or short at expiry). */
    applied: coinAmount("applied")
      .notNull()
      .default(sql`0`),
    credited: coinAmount("credited")
      .notNull()
      .default(sql`0`),
    /** The extra, in USD cents, as credited to the merchant's balance. */
    creditedCents: bigint("credited_cents", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    /** The last flush sent (its transaction) and when: another is sent only after FLUSH_RETRY_MS while it still holds funds. */
    flushTx: text("flush_tx"),
    flushSentAt: timestamp("flush_sent_at", { withTimezone: true }),
    /** Watched until then (the invoice's expiry and a week for late payments), and while it holds undecided funds. */
    watchUntil: timestamp("watch_until", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.network, t.address] }),
    uniqueIndex("payment_addresses_invoice_idx").on(t.invoiceId, t.network),
    index("payment_addresses_watch_idx").on(t.network, t.watchUntil),
  ],
);

/**
 * What a shopper's payment address received beyond what paid its invoice (over-paid, late, short at its end, or after
 * it was paid another way), owed back in the coin that arrived (lib/fulfilment/address-refunds.ts): decided in the
 * transaction that records it, exactly once; paid to `to_address` (the refund address the payer gave) from the shop's
 * refund wallet by a transfer signed and stored before it is sent; without an address it waits for the operator.
 */
export const addressRefunds = pgTable(
  "address_refunds",
  {
    id: text("id").primaryKey(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    network: text("network").notNull(),
    /** The payment address it arrived at. */
    address: text("address").notNull(),
    /** `native` (ether) or the token's contract. */
    asset: text("asset").notNull(),
    currency: text("currency").notNull(),
    decimals: integer("decimals").notNull(),
    amount: coinAmount("amount").notNull(),
    toAddress: text("to_address"),
    reason: text("reason").notNull(),
    /** `due` until the transfer landed (`paid`). */
    status: text("status").notNull().default("due"),
    /** The transfer signed and stored before it is sent: its hash, wire bytes and nonce (as orders' refunds keep them). */
    tx: text("tx"),
    raw: text("raw"),
    expiry: text("expiry"),
    /** Earlier versions of the stored EVM transfer (their hashes), each replaced at a higher fee by `tx` (one nonce). */
    superseded: text("superseded").array(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: integer("locked_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [index("address_refunds_due_idx").on(t.status, t.lockedUntil), index("address_refunds_invoice_idx").on(t.invoiceId)],
);

/**
 * The transfers counted to a payment address by their transaction (Solana Pay: found by the invoice's reference key),
 * each once: recorded in the transaction that adds it to the address's count, so that a round read again (a crash,
 * two servers) never counts it twice, nor for another address.
 */
export const addressTransfers = pgTable(
  "address_transfers",
  {
    network: text("network").notNull(),
    /** The transaction's signature. */
    id: text("id").notNull(),
    address: text("address").notNull(),
    amount: coinAmount("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.network, t.id] })],
);

/** One network's address watcher: the depth block it last read, and the server holding its round. */
export const chainWatchers = pgTable("chain_watchers", {
  network: text("network").primaryKey(),
  block: bigint("block", { mode: "bigint" }),
  head: bigint("head", { mode: "bigint" }),
  /** Solana: the newest transaction of the shop's token account read so far (the next round reads those after it). */
  cursor: text("cursor"),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  lockedBy: integer("locked_by"),
  lastError: text("last_error"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A coin's price in US dollars (lib/catalog/coin-prices.ts): the applied one, read from the operator's feed and
 * stored for every server; and a fetched one that moved too far, held until the operator confirms it.
 */
export const coinPrices = pgTable("coin_prices", {
  coin: text("coin").primaryKey(),
  usd: text("usd").notNull(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  source: text("source").notNull(),
  heldUsd: text("held_usd"),
  heldAt: timestamp("held_at", { withTimezone: true }),
});

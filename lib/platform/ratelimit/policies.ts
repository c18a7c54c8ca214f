/**
 * Every rate limit of the shop, in one place: the merchant API's per-endpoint table (spec `merchant-api.md`, "Limits"),
 * its product quota, the limits of the /x402 API, and failed sign-ins to the merchant dashboard. Routes, tests and docs read the numbers from here.
 */

/** At most `points` requests per `durationSec` seconds for one subject (a merchant account, a wallet, an IP). */
export type LimitRule = { points: number; durationSec: number };

/** A rule with the name it carries in the `RateLimit-Policy` and `RateLimit` fields. */
export type Policy = LimitRule & { name: string };

/**
 * Per endpoint and per merchant account (all its API keys and tokens together). Keys are "METHOD path", the path relative to `/api/v2` with `{id}` for the
 * path parameter, exactly as the spec's table writes them.
 */
export const MERCHANT_LIMITS = {
  "GET /ping": { points: 1, durationSec: 3 },
  "GET /check_phone_number": { points: 10, durationSec: 60 },
  "GET /accounts/balance": { points: 60, durationSec: 600 },
  "GET /products": { points: 60, durationSec: 60 },
  "GET /products/{id}": { points: 60, durationSec: 60 },
  "GET /products/esims": { points: 60, durationSec: 60 },
  "GET /products/esims/{id}": { points: 60, durationSec: 60 },
  "GET /products/search": { points: 60, durationSec: 60 },
  "GET /invoices": { points: 20, durationSec: 60 },
  "GET /invoices/{id}": { points: 60, durationSec: 600 },
  "POST /invoices": { points: 60, durationSec: 600 },
  "POST /invoices/{id}/pay": { points: 60, durationSec: 600 },
  "GET /esims/invoice/{id}": { points: 60, durationSec: 600 },
  "POST /esims": { points: 60, durationSec: 600 },
  "POST /esims/invoice/{id}/pay": { points: 60, durationSec: 600 },
  "GET /orders": { points: 20, durationSec: 60 },
  "GET /orders/{id}": { points: 60, durationSec: 600 },
  "GET /esims": { points: 20, durationSec: 60 },
  "GET /esims/{id}": { points: 60, durationSec: 600 },
  // Ours, beyond the spec's table: the webhook delivery log and redelivery.
  "GET /webhooks/deliveries": { points: 20, durationSec: 60 },
  "GET /webhooks/deliveries/{id}": { points: 60, durationSec: 600 },
  "POST /webhooks/deliveries/{id}/redeliver": { points: 20, durationSec: 600 },
  // The gift card batch facility (the spec names it and its errors, not its routes).
  "GET /gift-card-batches": { points: 20, durationSec: 60 },
  "POST /gift-card-batches": { points: 20, durationSec: 600 },
  "GET /gift-card-batches/{id}": { points: 60, durationSec: 600 },
} as const satisfies Record<string, LimitRule>;

/** The routes of ours that the spec's table does not list. */
export const EXTRA_MERCHANT_ROUTES = [
  "GET /webhooks/deliveries",
  "GET /webhooks/deliveries/{id}",
  "POST /webhooks/deliveries/{id}/redeliver",
  "GET /gift-card-batches",
  "POST /gift-card-batches",
  "GET /gift-card-batches/{id}",
] as const;

export type MerchantRouteId = keyof typeof MERCHANT_LIMITS;

/**
 * The spec's "1000 requests per hour across /products and /products/search", per account, counted on top of
 * those two endpoints' own limits. Read literally: the product detail and eSIM routes are not in it (they have only
 * their per-endpoint limits). Widening it is a change to `routes` here.
 */
export const PRODUCT_QUOTA = {
  name: "products-hourly",
  points: 1000,
  durationSec: 3600,
  routes: ["GET /products", "GET /products/search"] as readonly MerchantRouteId[],
} as const;

/**
 * Merchant API requests that no credential counts, per client IP: missing or refused credentials (401, 403), unknown
 * paths (404) and methods (405). Every answer of /api/v2 carries the X-RateLimit-* fields, these included, and a
 * guesser of keys or paths is slowed down. Loopback clients share one budget.
 */
export const MERCHANT_ANONYMOUS_LIMIT = { name: "api-v2-ip", points: 60, durationSec: 60 } as const satisfies Policy;

/**
 * The /x402 API (its spec sets no limits): one budget over all its routes, per client IP and per paying or signed-in
 * wallet. Generous on purpose: most calls are paid for, and an agent polling an invoice once a second uses 60 a minute.
 * They stop a runaway loop or a flood of unpaid 402 challenges, each of which costs us work and, for a paid call,
 * a facilitator round trip. The IP budget is the larger because many wallets can share one address (NAT, an agent host).
 */
export const X402_LIMITS = {
  ip: { name: "x402-ip", points: 600, durationSec: 60 },
  wallet: { name: "x402-wallet", points: 300, durationSec: 60 },
} as const satisfies Record<string, Policy>;

/**
 * Sign-ins to the merchant dashboard (`/dashboard/sign-in`): attempts per client IP and per credential id tried
 * (`ak_…` or a token's `pt_…`). Every attempt counts and a successful one gives its point back, so only failures
 * add up, and a burst of parallel guesses cannot slip past a check made before they are counted. The per-credential
 * budget stops a guesser that rotates addresses; the IP budget one that tries many ids.
 */
export const DASHBOARD_SIGN_IN_LIMITS = {
  ip: { name: "dashboard-sign-in-ip", points: 10, durationSec: 15 * 60 },
  credential: { name: "dashboard-sign-in-credential", points: 10, durationSec: 15 * 60 },
} as const satisfies Record<string, Policy>;

/**
 * Gift card codes tried (a cart's `gift_card_code`, a merchant invoice's, the balance page): per client IP and per
 * holder (the wallet or merchant account trying). Every try counts and one that names a card gives its point back, so
 * only wrong codes add up; a guesser of codes (100 random bits each) is stopped long before luck could matter.
 */
export const GIFT_CARD_GUESS_LIMITS = {
  ip: { name: "gift-card-guess-ip", points: 20, durationSec: 15 * 60 },
  holder: { name: "gift-card-guess-holder", points: 10, durationSec: 15 * 60 },
} as const satisfies Record<string, Policy>;

/**
 * Demo merchants made from the dashboard's sign-in page, a devnet convenience (off in every other mode): per client IP,
 * loopback clients sharing one budget. Each one is an account with a balance and keys in the database: a loop that
 * makes them is stopped.
 */
export const DEMO_MERCHANT_LIMIT = { name: "demo-merchant-ip", points: 10, durationSec: 10 * 60 } as const satisfies Policy;

/** Everything a limiter is built from; tests pass small or short ones. */
export type RateLimitPolicies = {
  merchant: Record<MerchantRouteId, LimitRule>;
  productQuota: Policy & { routes: readonly MerchantRouteId[] };
  merchantAnonymous: Policy;
  x402: { ip: Policy; wallet: Policy };
  dashboardSignIn: { ip: Policy; credential: Policy };
  giftCardGuess: { ip: Policy; holder: Policy };
  demoMerchant: Policy;
};

export const DEFAULT_POLICIES: RateLimitPolicies = {
  merchant: MERCHANT_LIMITS,
  productQuota: PRODUCT_QUOTA,
  merchantAnonymous: MERCHANT_ANONYMOUS_LIMIT,
  x402: X402_LIMITS,
  dashboardSignIn: DASHBOARD_SIGN_IN_LIMITS,
  giftCardGuess: GIFT_CARD_GUESS_LIMITS,
  demoMerchant: DEMO_MERCHANT_LIMIT,
};

/** The policy name of a merchant route in the IETF fields: "GET /products/{id}" -> "get-products-id". */
export function merchantPolicyName(routeId: MerchantRouteId): string {
  return routeId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** How much the devnet benchmarks (BENCHMARK_LIMITS=1) raise every limit: still counted, never reached by `npm run bench`. */
export const BENCHMARK_FACTOR = 1000;

/** Every policy with `factor` times its points: the same names, windows and headers. */
export function raisedPolicies(policies: RateLimitPolicies, factor: number): RateLimitPolicies {
  const raise = <T extends LimitRule>(rule: T): T => ({ ...rule, points: rule.points * factor });
  return {
    merchant: Object.fromEntries(Object.entries(policies.merchant).map(([k, v]) => [k, raise(v)])) as Record<MerchantRouteId, LimitRule>,
    productQuota: raise(policies.productQuota),
    merchantAnonymous: raise(policies.merchantAnonymous),
    x402: { ip: raise(policies.x402.ip), wallet: raise(policies.x402.wallet) },
    dashboardSignIn: { ip: raise(policies.dashboardSignIn.ip), credential: raise(policies.dashboardSignIn.credential) },
    giftCardGuess: { ip: raise(policies.giftCardGuess.ip), holder: raise(policies.giftCardGuess.holder) },
    demoMerchant: raise(policies.demoMerchant),
  };
}

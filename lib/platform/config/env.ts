import { isIP } from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";

const port = z.coerce
  .number({ error: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const emptyAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A whole number of `unit` from `min` to `max`; unset or empty, `fallback`. */
const wholeNumber = (unit: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: `must be a number of ${unit}` })
      .int(`must be a whole number of ${unit}`)
      .min(min, `must be ${min} to ${max} ${unit}`)
      .max(max, `must be ${min} to ${max} ${unit}`)
      .default(fallback),
  );

const optionalUrl = z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional());

const optionalEvmPrivateKey = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
    .optional(),
);

const optionalSolanaSecretKey = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, "must be a base58 64-byte Solana secret key")
    .optional(),
);

/** The environment this app reads, with defaults. Every variable the app uses is named here and nowhere else. */
export const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, port.default(3000)),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** A direct (unpooled) URL of the same database, for migrations when DATABASE_URL goes through a transaction pooler. */
  DATABASE_URL_UNPOOLED: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** Redis for the rate-limit counts of several servers (preferred over DATABASE_URL's table when set). */
  REDIS_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional()),
  PUBLIC_ORIGIN: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) origin such as https://shop.example.com" })
      .transform((u) => new URL(u).origin)
      .optional(),
  ),
  NETWORK_MODE: z.preprocess(
    emptyAsUndefined,
    z.enum(["devnet", "testnet", "mainnet"], { error: "must be one of devnet, testnet, mainnet" }).default("devnet"),
  ),
  PRICE_MARGIN_BPS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a number of basis points" })
      .int("must be a whole number of basis points")
      .min(0, "must be between 0 and 5000 basis points")
      .max(5000, "must be between 0 and 5000 basis points")
      .default(0),
  ),
  /**
   * How many proxies in front of the shop append to X-Forwarded-For: the client's address is then that many entries
   * from the right, and whatever a client wrote into the header itself is ignored; a request with fewer entries came
   * past the proxies and is counted by its socket's address. Unset: the socket's address (on Vercel, the platform's
   * X-Real-IP).
   */
  TRUSTED_PROXY_HOPS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a whole number of proxies" })
      .int("must be a whole number of proxies")
      .min(1, "must be 1 to 10")
      .max(10, "must be 1 to 10")
      .optional(),
  ),
  /** Set by Vercel on its builds and functions: the stricter start-up rules of a serverless deploy apply. */
  VERCEL: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The bearer secret of GET /api/cron/tick (Vercel Cron sends `Authorization: Bearer $CRON_SECRET`). */
  CRON_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  /** Secret for session tokens (at least 32 characters); generated under DATA_DIR when unset. */
  SESSION_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  GIFT_CARD_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  /** Bearer token of the operator admin API (`/api/admin`); in devnet mode, generated under DATA_DIR when unset. */
  ADMIN_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(24, "must be at least 24 characters").optional()),
  /** A remote x402 facilitator; the in-process one is used when unset (CDP's when CDP_API_KEY_ID is set). https on mainnet (but loopback). */
  FACILITATOR_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()),
  /** One header line sent with every call to FACILITATOR_URL: a hosted facilitator's credentials ("Authorization: Bearer KEY"). */
  FACILITATOR_AUTH_HEADER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \t]*[^\s\0-\x1f\x7f][^\0-\x08\x0a-\x1f\x7f]*$/,
        "must be one header line, NAME: VALUE (e.g. Authorization: Bearer KEY)",
      )
      .optional(),
  ),
  /** A Coinbase CDP API key: every call to the facilitator carries a JWT signed with it (CDP's hosted facilitator). */
  CDP_API_KEY_ID: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  /** The CDP key's secret: a base64 Ed25519 key, or an EC key in PEM (its line breaks may be written as \n). */
  CDP_API_KEY_SECRET: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(4000).optional()),
  /**
   * Gas wallets of the in-process facilitator on testnet/mainnet (devnet generates its own): one key, or several
   * separated by commas, a pool that settles concurrently (each settlement goes to the least busy wallet).
   */
  FACILITATOR_EVM_PRIVATE_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\s*0x[0-9a-fA-F]{64}(\s*,\s*0x[0-9a-fA-F]{64})*\s*$/, "must be a 0x-prefixed 32-byte hex private key, or several separated by commas")
      .optional(),
  ),
  FACILITATOR_SOLANA_PRIVATE_KEY: optionalSolanaSecretKey,
  /** Refund wallets on testnet/mainnet: failed orders are paid back from them (they hold USDC and pay their own gas). */
  REFUND_EVM_PRIVATE_KEY: optionalEvmPrivateKey,
  REFUND_SOLANA_PRIVATE_KEY: optionalSolanaSecretKey,
  /** Where payments go on testnet/mainnet (devnet generates its own wallets). */
  PAY_TO_EVM: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x EVM address")
      .optional(),
  ),
  PAY_TO_SOLANA: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be a base58 Solana address")
      .optional(),
  ),
  /** RPC overrides per network of the mode. */
  RPC_URL_BASE: optionalUrl,
  RPC_URL_ARBITRUM: optionalUrl,
  RPC_URL_POLYGON: optionalUrl,
  RPC_URL_SOLANA: optionalUrl,
  /** Ethereum's (Sepolia on testnet), for the invoices paid there by a transfer to their own address. */
  RPC_URL_ETHEREUM: optionalUrl,
  INVOICE_TTL_MINUTES: wholeNumber("minutes", 1, 1440, 15),
  /** The first retry delay of a webhook message; later ones grow from it (see lib/webhooks/backoff.ts). */
  WEBHOOK_RETRY_BASE_SECONDS: wholeNumber("seconds", 1, 3600, 10),
  /**
   * Devnet only: seconds between blocks of the local EVM chains (interval mining, as Base, Arbitrum and Polygon), with
   * Solana transactions confirming on its 400 ms slot clock; 0 mines one block per transaction at once.
   */
  /** Devnet only: the URL of a devnet another process serves (`npm run devnet`), used instead of starting chains here. */
  DEVNET_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()),
  DEVNET_BLOCK_TIME: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a number of seconds" })
      .min(0, "must be 0 to 60 seconds")
      .max(60, "must be 0 to 60 seconds")
      .refine((n) => Number.isInteger(n * 10), "must be whole tenths of a second")
      .default(1),
  ),
  /**
   * Devnet only: `1` multiplies every rate limit by 1000 for `npm run bench` (the limits are still counted and
   * answered in headers, so their cost is measured). Start-up refuses it in any other mode.
   */
  BENCHMARK_LIMITS: z.preprocess(emptyAsUndefined, z.enum(["1"], { error: "must be 1 (or unset)" }).optional()),
  /**
   * Live exchange rates: a URL serving the ECB's daily XML (eurofxref-daily.xml) or JSON `{base, date, rates}`, read on
   * the scheduler and stored in the database (every server prices with the same rates). Unset: the table shipped
   * with the catalog (lib/catalog/fx-rates.json). https on mainnet (but loopback).
   */
  FX_RATES_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()),
  /**
   * How old (by the rates' own date) live rates may be before products priced in other currencies than the dollar
   * are unavailable rather than mispriced: 96 hours by default, a long weekend of the ECB (it publishes on working days).
   */
  FX_MAX_AGE_HOURS: wholeNumber("hours", 24, 720, 96),
  /**
   * How far (in percent of the stored rate) a fetched rate may move a currency and still be applied at once: a feed
   * that moves any currency further is held, with a warning, until the operator confirms it (/operator, or POST
   * /api/admin/fx/confirm); the stored rates keep pricing meanwhile. 10 % by default: more than a day's move of any
   * currency the ECB lists, short of a feed's error (a rate inverted, a decimal point lost).
   */
  FX_MAX_MOVE_PERCENT: wholeNumber("percent", 1, 100, 10),
  /**
   * The price of ether in US dollars for the ether methods (`eth_base`, `eth_arbitrum`): a public spot ticker's URL
   * (Coinbase's `/v2/prices/ETH-USD/spot`, CoinGecko's `simple/price?ids=ethereum&vs_currencies=usd`, Binance's
   * `ticker/price?symbol=ETHUSDT`, Kraken's `Ticker?pair=ETHUSD`, or JSON `{"price": "…"}`), read every minute and
   * stored. Unset on the devnet: a fixed 3,000 USD. Unset on testnet and mainnet: no ether method is offered.
   */
  ETH_USD_PRICE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()),
  /** How old the stored ether price may be before ether invoices are refused rather than mispriced. */
  ETH_USD_MAX_AGE_MINUTES: wholeNumber("minutes", 1, 1440, 10),
  /**
   * How far (in percent of the applied price) a fetched ether price may move and still be applied at once: a further
   * move is held for the operator, as exchange rates are (the applied price keeps pricing until it is stale).
   */
  ETH_USD_MAX_MOVE_PERCENT: wholeNumber("percent", 1, 100, 15),
  SEED_DEMO_CATALOG: z.preprocess(emptyAsUndefined, z.enum(["true", "false"], { error: "must be true or false" }).optional()),
  /**
   * An upstream supplier speaking the merchant API v2 (another shop like this one): its base URL (`…/api/v2`) and
   * its credentials, a business key (UPSTREAM_API_ID + UPSTREAM_API_SECRET, Basic) or a personal token
   * (UPSTREAM_API_TOKEN, Bearer). Its catalog is synced and its products are bought on demand (lib/supply). https on
   * mainnet (but loopback).
   */
  UPSTREAM_API_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://supplier.example/api/v2" })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  UPSTREAM_API_ID: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  UPSTREAM_API_SECRET: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(500).optional()),
  UPSTREAM_API_TOKEN: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(500).optional()),
  /**
   * The upstream account's webhook secret (`whsec_…`): each upstream invoice then names this shop's
   * `PUBLIC_ORIGIN/api/upstream/webhook`, and a signed (Standard Webhooks) final invoice makes its order due at once,
   * ahead of the polling.
   */
  UPSTREAM_WEBHOOK_SECRET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must be a Standard Webhooks secret, whsec_ followed by base64")
      .optional(),
  ),
  /** The least the shop earns on an upstream product: its price is never below the upstream cost plus this percentage. */
  UPSTREAM_MARGIN_PERCENT: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a percentage such as 5 or 7.5" })
      .min(0, "must be 0 to 100 percent")
      .max(100, "must be 0 to 100 percent")
      .refine((n) => Number.isInteger(n * 100), "must have at most 2 decimals")
      .default(5),
  ),
  /** How long an order waits for the operator to top up the upstream balance (`balance_too_low`) before it is refunded. */
  UPSTREAM_HOLD_MINUTES: wholeNumber("minutes", 1, 10080, 60),
  /**
   * The first wait before the upstream is asked again about a purchase it has not finished (each next wait doubles, up
   * to 5 minutes or this when longer). With UPSTREAM_WEBHOOK_SECRET the upstream's webhook comes first: a longer wait
   * spares the upstream's limit on invoice and order reads (60 per 10 minutes).
   */
  UPSTREAM_POLL_SECONDS: wholeNumber("seconds", 1, 3600, 2),
  /** How often the upstream catalog is synced again after a complete pass. */
  UPSTREAM_SYNC_MINUTES: wholeNumber("minutes", 5, 1440, 60),
  /** WalletConnect project id: WalletConnect-based wallets appear in the connect dialog only with one. */
  NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[0-9a-f]{32}$/i, "must be a 32-character hex project id")
      .optional(),
  ),
});

export type Config = {
  port: number;
  /** Absolute path of the folder for embedded data (PGlite, generated keys). */
  dataDir: string;
  databaseUrl: string | undefined;
  /** Direct URL for migrations (DATABASE_URL_UNPOOLED), when DATABASE_URL is pooled. */
  databaseUrlUnpooled: string | undefined;
  /** Where several servers share their rate-limit counts; unset: the database's table, or memory on the embedded one. */
  redisUrl: string | undefined;
  /** Live exchange rates (FX_RATES_URL), and how old they may be before foreign-currency products are unavailable. */
  fxRatesUrl: string | undefined;
  fxMaxAgeHours: number;
  /** A fetched rate that moves a currency further than this (percent) is held for the operator to confirm. */
  fxMaxMovePercent: number;
  /** The ether price feed (ETH_USD_PRICE_URL), how old its price may be, and how far it may jump unconfirmed. */
  ethUsdPriceUrl: string | undefined;
  ethUsdMaxAgeMinutes: number;
  ethUsdMaxMovePercent: number;
  publicOrigin: string | undefined;
  /** Proxies in front that append to X-Forwarded-For (see TRUSTED_PROXY_HOPS); undefined: the header is replaced by the platform. */
  trustedProxyHops: number | undefined;
  networkMode: "devnet" | "testnet" | "mainnet";
  /** Margin added on top of the USD cost of a package, in basis points (100 = 1 %). */
  priceMarginBps: number;
  /** Seed the demo catalog and test products into an empty database at first start. */
  seedDemoCatalog: boolean;
  /** Devnet benchmarks (BENCHMARK_LIMITS=1): every rate limit multiplied by 1000. */
  benchmarkLimits: boolean;
  walletConnectProjectId: string | undefined;
  sessionSecret: string | undefined;
  /** The key of the shop's own gift card codes (their keyed hash and sealed copy); SESSION_SECRET's when unset. */
  giftCardSecret: string | undefined;
  /** Running on Vercel (VERCEL=1): serverless functions, no long-lived process, nothing written outside /tmp. */
  vercel: boolean;
  /** Bearer secret of the cron route (GET /api/cron/tick); without it the route is off. */
  cronSecret: string | undefined;
  adminToken: string | undefined;
  /** How long an invoice's locked price may be paid. */
  invoiceTtlMinutes: number;
  /** The first retry delay of a webhook message, in seconds; the schedule grows from it over about a day. */
  webhookRetryBaseSeconds: number;
  /** Devnet: seconds between EVM blocks (0: one block per transaction). */
  devnetBlockTime: number;
  /** Devnet: the shared devnet to use (`npm run devnet`), instead of chains of this process. */
  devnetUrl: string | undefined;
  facilitatorUrl: string | undefined;
  /** The credentials sent to a remote facilitator. */
  facilitatorAuth: FacilitatorAuth | undefined;
  /** The in-process facilitator's EVM gas wallets (a pool when several). */
  facilitatorEvmPrivateKeys: `0x${string}`[];
  facilitatorSolanaPrivateKey: string | undefined;
  /** The refund wallets (testnet/mainnet): without one, refunds on that chain family wait for the operator. */
  refundEvmPrivateKey: `0x${string}` | undefined;
  refundSolanaPrivateKey: string | undefined;
  payTo: { evm: `0x${string}` | undefined; solana: string | undefined };
  rpcUrls: { base?: string; arbitrum?: string; polygon?: string; solana?: string; ethereum?: string };
  /** The upstream supplier (UPSTREAM_API_URL and its credentials), when one is configured. */
  upstream: UpstreamConfig | undefined;
};

/** An upstream supplier speaking the merchant API v2, and how the shop resells it. */
export type UpstreamConfig = {
  /** Base URL of its API, without a trailing slash (`https://supplier.example/api/v2`). */
  url: string;
  auth: { kind: "basic"; id: string; secret: string } | { kind: "bearer"; token: string };
  /** The least margin over the upstream cost, in basis points (5 % = 500). */
  marginBps: number;
  holdMinutes: number;
  /** The first wait before asking the upstream again about an unfinished purchase (UPSTREAM_POLL_SECONDS). */
  pollSeconds: number;
  syncMinutes: number;
  /** Where the upstream sends its signed final invoices, and the secret they are signed with (UPSTREAM_WEBHOOK_SECRET). */
  webhook: { url: string; secret: string } | undefined;
};

export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      "Invalid configuration:\n" + issues.map((i) => `  ${i.variable}: ${i.message}`).join("\n") + "\nFix the environment variable(s) above and start again.",
    );
    this.name = "ConfigError";
  }
}

/** Parses an environment (process.env by default) into the typed config, or throws a ConfigError naming each bad variable. */
export function parseConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? "environment");
        // A database URL may carry a password: never echo it.
        const got = SECRET_VARIABLES.has(variable) ? "" : ` (got ${JSON.stringify(env[variable] ?? "")})`;
        return { variable, message: `${issue.message}${got}` };
      }),
    );
  }
  const e = parsed.data;
  const plain = mainnetPlainHttp(e);
  if (plain.length > 0) throw new ConfigError(plain);
  return {
    port: e.PORT,
    // On Vercel only /tmp is writable.
    dataDir: path.resolve(cwd, e.DATA_DIR ?? (e.VERCEL === "1" ? "/tmp/storefront" : "./.data")),
    databaseUrl: e.DATABASE_URL,
    databaseUrlUnpooled: e.DATABASE_URL_UNPOOLED,
    redisUrl: e.REDIS_URL,
    fxRatesUrl: e.FX_RATES_URL,
    fxMaxAgeHours: e.FX_MAX_AGE_HOURS,
    fxMaxMovePercent: e.FX_MAX_MOVE_PERCENT,
    ethUsdPriceUrl: e.ETH_USD_PRICE_URL,
    ethUsdMaxAgeMinutes: e.ETH_USD_MAX_AGE_MINUTES,
    ethUsdMaxMovePercent: e.ETH_USD_MAX_MOVE_PERCENT,
    publicOrigin: e.PUBLIC_ORIGIN,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    networkMode: e.NETWORK_MODE,
    priceMarginBps: e.PRICE_MARGIN_BPS,
    // The demo catalog is seeded on the devnet unless refused, elsewhere only when asked for explicitly.
    // With an upstream supplier the catalog is the upstream's: no demo (upstreamSettings refuses SEED_DEMO_CATALOG=true).
    seedDemoCatalog: e.SEED_DEMO_CATALOG === undefined ? e.NETWORK_MODE === "devnet" && !upstreamConfigured(e) : e.SEED_DEMO_CATALOG === "true",
    walletConnectProjectId: e.NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID,
    benchmarkLimits: e.BENCHMARK_LIMITS === "1",
    sessionSecret: e.SESSION_SECRET,
    giftCardSecret: e.GIFT_CARD_SECRET,
    vercel: e.VERCEL === "1",
    cronSecret: e.CRON_SECRET,
    adminToken: e.ADMIN_TOKEN,
    invoiceTtlMinutes: e.INVOICE_TTL_MINUTES,
    webhookRetryBaseSeconds: e.WEBHOOK_RETRY_BASE_SECONDS,
    devnetBlockTime: e.DEVNET_BLOCK_TIME,
    devnetUrl: e.DEVNET_URL,
    ...facilitatorSettings(e),
    facilitatorEvmPrivateKeys: (e.FACILITATOR_EVM_PRIVATE_KEY?.split(",").map((k) => k.trim()) ?? []) as `0x${string}`[],
    facilitatorSolanaPrivateKey: e.FACILITATOR_SOLANA_PRIVATE_KEY,
    refundEvmPrivateKey: e.REFUND_EVM_PRIVATE_KEY as `0x${string}` | undefined,
    refundSolanaPrivateKey: e.REFUND_SOLANA_PRIVATE_KEY,
    payTo: { evm: e.PAY_TO_EVM as `0x${string}` | undefined, solana: e.PAY_TO_SOLANA },
    rpcUrls: { base: e.RPC_URL_BASE, arbitrum: e.RPC_URL_ARBITRUM, polygon: e.RPC_URL_POLYGON, solana: e.RPC_URL_SOLANA, ethereum: e.RPC_URL_ETHEREUM },
    upstream: upstreamSettings(e),
  };
}

/** The services a mainnet shop trusts with money and prices: reached over TLS, or on this machine. */
const MAINNET_HTTPS = ["FACILITATOR_URL", "UPSTREAM_API_URL", "FX_RATES_URL", "ETH_USD_PRICE_URL"] as const;

/**
 * On mainnet, a facilitator (it settles the payments), an upstream supplier (its credentials, what it delivers) and a
 * rate feed (every foreign-currency price) over plain http could be read and answered by anyone on the path: https
 * is required, but for a loopback address (a sidecar on this machine, which no path crosses).
 */
function mainnetPlainHttp(e: z.infer<typeof envSchema>): { variable: string; message: string }[] {
  if (e.NETWORK_MODE !== "mainnet") return [];
  return MAINNET_HTTPS.flatMap((variable) => {
    const value = e[variable];
    if (value === undefined) return [];
    const url = new URL(value);
    if (url.protocol === "https:" || loopbackHost(url.hostname)) return [];
    return [
      { variable, message: `must be an https URL in mainnet mode (plain http only to localhost or a loopback address); got ${url.protocol}//${url.host}` },
    ];
  });
}

/** localhost, 127.0.0.0/8 or ::1 (a URL writes IPv6 hosts in brackets). */
function loopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  return isIP(host) !== 0 && ipaddr.process(host).range() === "loopback";
}

const upstreamConfigured = (e: z.infer<typeof envSchema>) =>
  e.UPSTREAM_API_URL !== undefined ||
  e.UPSTREAM_API_ID !== undefined ||
  e.UPSTREAM_API_SECRET !== undefined ||
  e.UPSTREAM_API_TOKEN !== undefined ||
  e.UPSTREAM_WEBHOOK_SECRET !== undefined;

/**
 * The upstream supplier, or undefined when none is configured. Refuses half a configuration: a URL without
 * credentials, credentials without a URL, half a business key, or both kinds of credentials at once.
 */
function upstreamSettings(e: z.infer<typeof envSchema>): UpstreamConfig | undefined {
  const issues: { variable: string; message: string }[] = [];
  const basic = e.UPSTREAM_API_ID !== undefined || e.UPSTREAM_API_SECRET !== undefined;
  const bearer = e.UPSTREAM_API_TOKEN !== undefined;
  if (!upstreamConfigured(e)) return undefined;
  if (basic && (e.UPSTREAM_API_ID === undefined || e.UPSTREAM_API_SECRET === undefined)) {
    const absent = e.UPSTREAM_API_ID === undefined ? "UPSTREAM_API_ID" : "UPSTREAM_API_SECRET";
    issues.push({ variable: absent, message: "is required with the other half of the upstream business key (UPSTREAM_API_ID and UPSTREAM_API_SECRET)" });
  }
  if (basic && bearer) {
    issues.push({ variable: "UPSTREAM_API_TOKEN", message: "cannot be used with UPSTREAM_API_ID/UPSTREAM_API_SECRET: give one kind of upstream credentials" });
  }
  if (!e.UPSTREAM_API_URL) {
    issues.push({ variable: "UPSTREAM_API_URL", message: "is required with the upstream credentials (the supplier's merchant API v2 base URL)" });
  } else if (!basic && !bearer) {
    issues.push({
      variable: "UPSTREAM_API_URL",
      message: "needs credentials: UPSTREAM_API_ID and UPSTREAM_API_SECRET (Basic), or UPSTREAM_API_TOKEN (Bearer)",
    });
  }
  if (e.UPSTREAM_WEBHOOK_SECRET !== undefined && e.PUBLIC_ORIGIN === undefined) {
    issues.push({ variable: "UPSTREAM_WEBHOOK_SECRET", message: "needs PUBLIC_ORIGIN: the upstream sends its webhooks to PUBLIC_ORIGIN/api/upstream/webhook" });
  }
  if (e.SEED_DEMO_CATALOG === "true") {
    issues.push({ variable: "SEED_DEMO_CATALOG", message: "cannot be true with an upstream supplier: the catalog is the upstream's" });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    url: e.UPSTREAM_API_URL!,
    auth: bearer ? { kind: "bearer", token: e.UPSTREAM_API_TOKEN! } : { kind: "basic", id: e.UPSTREAM_API_ID!, secret: e.UPSTREAM_API_SECRET! },
    marginBps: Math.round(e.UPSTREAM_MARGIN_PERCENT * 100),
    holdMinutes: e.UPSTREAM_HOLD_MINUTES,
    pollSeconds: e.UPSTREAM_POLL_SECONDS,
    syncMinutes: e.UPSTREAM_SYNC_MINUTES,
    webhook: e.UPSTREAM_WEBHOOK_SECRET ? { url: `${e.PUBLIC_ORIGIN}/api/upstream/webhook`, secret: e.UPSTREAM_WEBHOOK_SECRET } : undefined,
  };
}

/** Where CDP's hosted facilitator answers (Coinbase's documented base URL and x402 route). */
export const CDP_FACILITATOR_URL = "https://api.cdp.coinbase.com/platform/v2/x402";

/**
 * How the shop signs in to a remote facilitator: a fixed header line, or a CDP API key (a JWT per call, signed for
 * the call's method, host and path).
 */
export type FacilitatorAuth = { kind: "header"; name: string; value: string } | { kind: "cdp"; keyId: string; keySecret: string };

/** FACILITATOR_URL and its credentials; CDP's URL when only a CDP key is given. Refuses the combinations that cannot work. */
function facilitatorSettings(e: z.infer<typeof envSchema>): { facilitatorUrl: string | undefined; facilitatorAuth: FacilitatorAuth | undefined } {
  const issues: { variable: string; message: string }[] = [];
  const cdp = e.CDP_API_KEY_ID !== undefined || e.CDP_API_KEY_SECRET !== undefined;
  if (cdp && (e.CDP_API_KEY_ID === undefined || e.CDP_API_KEY_SECRET === undefined)) {
    const absent = e.CDP_API_KEY_ID === undefined ? "CDP_API_KEY_ID" : "CDP_API_KEY_SECRET";
    issues.push({ variable: absent, message: "is required with the other half of the CDP API key" });
  }
  if (cdp && e.FACILITATOR_AUTH_HEADER !== undefined) {
    issues.push({ variable: "FACILITATOR_AUTH_HEADER", message: "cannot be used with a CDP API key: the facilitator takes one kind of credentials" });
  }
  if (e.FACILITATOR_AUTH_HEADER !== undefined && e.FACILITATOR_URL === undefined) {
    issues.push({
      variable: "FACILITATOR_AUTH_HEADER",
      message: "is sent to FACILITATOR_URL, which is not set (the in-process facilitator needs no credentials)",
    });
  }
  if (cdp && e.FACILITATOR_URL === undefined && e.NETWORK_MODE === "devnet") {
    issues.push({
      variable: "CDP_API_KEY_ID",
      message: "CDP's facilitator does not know the devnet's chains: set FACILITATOR_URL, or a testnet/mainnet NETWORK_MODE",
    });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  if (cdp) {
    // A PEM key pasted into a .env file keeps its line breaks as the two characters \n.
    const keySecret = e.CDP_API_KEY_SECRET!.replace(/\\n/g, "\n");
    return { facilitatorUrl: e.FACILITATOR_URL ?? CDP_FACILITATOR_URL, facilitatorAuth: { kind: "cdp", keyId: e.CDP_API_KEY_ID!, keySecret } };
  }
  if (e.FACILITATOR_AUTH_HEADER !== undefined) {
    const colon = e.FACILITATOR_AUTH_HEADER.indexOf(":");
    const name = e.FACILITATOR_AUTH_HEADER.slice(0, colon);
    return { facilitatorUrl: e.FACILITATOR_URL, facilitatorAuth: { kind: "header", name, value: e.FACILITATOR_AUTH_HEADER.slice(colon + 1).trim() } };
  }
  return { facilitatorUrl: e.FACILITATOR_URL, facilitatorAuth: undefined };
}

const SECRET_VARIABLES = new Set([
  "FACILITATOR_AUTH_HEADER",
  "CDP_API_KEY_SECRET",
  "DATABASE_URL",
  "DATABASE_URL_UNPOOLED",
  "REDIS_URL",
  "SESSION_SECRET",
  "GIFT_CARD_SECRET",
  "ADMIN_TOKEN",
  "CRON_SECRET",
  "FACILITATOR_EVM_PRIVATE_KEY",
  "FACILITATOR_SOLANA_PRIVATE_KEY",
  "REFUND_EVM_PRIVATE_KEY",
  "REFUND_SOLANA_PRIVATE_KEY",
  "UPSTREAM_API_SECRET",
  "UPSTREAM_API_TOKEN",
  "UPSTREAM_WEBHOOK_SECRET",
]);

/**
 * What a server needs beyond a valid environment, as ConfigError issues (empty: it may start):
 * - on Vercel, DATABASE_URL (functions keep no files), SESSION_SECRET (every function instance signs and checks the
 *   same tokens), NETWORK_MODE (no silent devnet in a deploy) and CRON_SECRET (the background round runs from cron);
 * - SESSION_SECRET whenever DATABASE_URL is set or the mode is not devnet: several servers share one database, and a
 *   secret generated under one server's DATA_DIR would not be the others'.
 */
export function serverRequirements(c: Config, env: Record<string, string | undefined> = process.env): { variable: string; message: string }[] {
  const issues: { variable: string; message: string }[] = [];
  const missing = (variable: string, why: string) => issues.push({ variable, message: `is required ${why}` });
  if (c.vercel) {
    if (!c.databaseUrl)
      missing("DATABASE_URL", "on Vercel: functions keep no files, so the embedded database cannot be used (a PostgreSQL URL, pooled or direct)");
    if (c.networkMode === "devnet" && (env.NETWORK_MODE ?? "").trim() && !c.devnetUrl)
      issues.push({
        variable: "NETWORK_MODE",
        message: "devnet needs local chains, which do not run in Vercel functions: use testnet or mainnet (or DEVNET_URL)",
      });
    if (!(env.NETWORK_MODE ?? "").trim()) missing("NETWORK_MODE", "on Vercel: choose testnet or mainnet (the devnet's local chains do not run in functions)");
    if (!c.cronSecret) missing("CRON_SECRET", "on Vercel: the background round (GET /api/cron/tick) runs from Vercel Cron with it");
  }
  if (c.benchmarkLimits && (c.networkMode !== "devnet" || c.vercel)) {
    issues.push({ variable: "BENCHMARK_LIMITS", message: "raises the rate limits for benchmarks on the devnet only: unset it for a testnet or mainnet shop" });
  }
  if (!c.sessionSecret && (c.vercel || c.databaseUrl || c.networkMode !== "devnet")) {
    missing(
      "SESSION_SECRET",
      c.vercel
        ? "on Vercel: every function must sign and check the same session tokens"
        : "when DATABASE_URL is set or the mode is not devnet: every server must sign and check the same session tokens (32+ characters)",
    );
  }
  return issues;
}

let cached: Config | undefined;

/** The process's config, parsed once. */
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

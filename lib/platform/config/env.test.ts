import { describe, expect, it } from "vitest";
import { CDP_FACILITATOR_URL, ConfigError, parseConfig, serverRequirements } from "./env";

describe("parseConfig", () => {
  it("has defaults for a fresh machine", () => {
    const c = parseConfig({}, "/srv/shop");
    expect(c).toEqual({
      port: 3000,
      dataDir: "/srv/shop/.data",
      databaseUrl: undefined,
      redisUrl: undefined,
      fxRatesUrl: undefined,
      fxMaxAgeHours: 96,
      fxMaxMovePercent: 10,
      ethUsdPriceUrl: undefined,
      ethUsdMaxAgeMinutes: 10,
      ethUsdMaxMovePercent: 15,
      publicOrigin: undefined,
      networkMode: "devnet",
      priceMarginBps: 0,
      seedDemoCatalog: true,
      benchmarkLimits: false,
      walletConnectProjectId: undefined,
      sessionSecret: undefined,
      vercel: false,
      invoiceTtlMinutes: 15,
      webhookRetryBaseSeconds: 10,
      devnetBlockTime: 1,
      devnetUrl: undefined,
      facilitatorUrl: undefined,
      facilitatorAuth: undefined,
      facilitatorEvmPrivateKeys: [],
      facilitatorSolanaPrivateKey: undefined,
      refundEvmPrivateKey: undefined,
      refundSolanaPrivateKey: undefined,
      payTo: { evm: undefined, solana: undefined },
      rpcUrls: { base: undefined, arbitrum: undefined, polygon: undefined, solana: undefined },
      upstream: undefined,
    });
  });

  it("reads an upstream supplier with a business key or a token, and turns the demo catalog off", () => {
    const basic = parseConfig({ UPSTREAM_API_URL: "https://supplier.example/api/v2/", UPSTREAM_API_ID: "id1", UPSTREAM_API_SECRET: "s3cret-basic" });
    expect(basic.upstream).toEqual({
      url: "https://supplier.example/api/v2",
      auth: { kind: "basic", id: "id1", secret: "s3cret-basic" },
      marginBps: 500,
      holdMinutes: 60,
      pollSeconds: 2,
      syncMinutes: 60,
      webhook: undefined,
    });
    expect(basic.seedDemoCatalog).toBe(false);
    const bearer = parseConfig({
      UPSTREAM_API_URL: "http://127.0.0.1:4000/api/v2",
      UPSTREAM_API_TOKEN: "tok",
      UPSTREAM_MARGIN_PERCENT: "7.5",
      UPSTREAM_HOLD_MINUTES: "15",
      UPSTREAM_POLL_SECONDS: "600",
    });
    expect(bearer.upstream).toMatchObject({ auth: { kind: "bearer", token: "tok" }, marginBps: 750, holdMinutes: 15, pollSeconds: 600 });
    const hooked = parseConfig({
      UPSTREAM_API_URL: "https://s.example/api/v2",
      UPSTREAM_API_TOKEN: "t",
      UPSTREAM_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      PUBLIC_ORIGIN: "https://shop.example.com",
    });
    expect(hooked.upstream?.webhook).toEqual({ url: "https://shop.example.com/api/upstream/webhook", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
    for (const bad of ["-1", "101", "1.234", "lots"]) {
      expect(() => parseConfig({ UPSTREAM_API_URL: "https://s.example/api/v2", UPSTREAM_API_TOKEN: "t", UPSTREAM_MARGIN_PERCENT: bad })).toThrow(
        /UPSTREAM_MARGIN_PERCENT/,
      );
    }
  });

  it("refuses half an upstream configuration at start, naming what is missing and never echoing a secret", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ UPSTREAM_API_URL: "https://s.example/api/v2" }, /UPSTREAM_API_URL: needs credentials/],
      [{ UPSTREAM_API_URL: "https://s.example/api/v2", UPSTREAM_API_ID: "id" }, /UPSTREAM_API_SECRET: is required/],
      [{ UPSTREAM_API_URL: "https://s.example/api/v2", UPSTREAM_API_SECRET: "hidden-secret-1" }, /UPSTREAM_API_ID: is required/],
      [{ UPSTREAM_API_TOKEN: "hidden-secret-2" }, /UPSTREAM_API_URL: is required/],
      [{ UPSTREAM_API_ID: "id", UPSTREAM_API_SECRET: "hidden-secret-3" }, /UPSTREAM_API_URL: is required/],
      [
        { UPSTREAM_API_URL: "https://s.example/api/v2", UPSTREAM_API_ID: "id", UPSTREAM_API_SECRET: "hidden-secret-4", UPSTREAM_API_TOKEN: "hidden-secret-5" },
        /UPSTREAM_API_TOKEN: cannot be used/,
      ],
      [{ UPSTREAM_API_URL: "https://s.example/api/v2", UPSTREAM_API_TOKEN: "t", SEED_DEMO_CATALOG: "true" }, /SEED_DEMO_CATALOG: cannot be true/],
      [{ UPSTREAM_API_URL: "ftp://s.example", UPSTREAM_API_TOKEN: "hidden-secret-6" }, /UPSTREAM_API_URL: must be an http\(s\) URL/],
      [
        { UPSTREAM_API_URL: "https://s.example/api/v2", UPSTREAM_API_TOKEN: "t", UPSTREAM_WEBHOOK_SECRET: "whsec_hiddensecret7hiddensecret7" },
        /needs PUBLIC_ORIGIN/,
      ],
      [{ UPSTREAM_WEBHOOK_SECRET: "whsec_hiddensecret8hiddensecret8", PUBLIC_ORIGIN: "https://shop.example.com" }, /UPSTREAM_API_URL: is required/],
    ];
    for (const [env, message] of cases) {
      const err = configError(env);
      expect(err.message).toMatch(message);
      expect(err.message).not.toMatch(/hidden-?secret/);
    }
  });

  it("reads every variable", () => {
    const c = parseConfig(
      {
        PORT: "8080",
        DATA_DIR: "/var/lib/shop",
        DATABASE_URL: "postgres://u:p@db:5432/shop",
        PUBLIC_ORIGIN: "https://shop.example.com/",
        NETWORK_MODE: "testnet",
        PRICE_MARGIN_BPS: "250",
        SEED_DEMO_CATALOG: "false",
      },
      "/x",
    );
    expect(c).toMatchObject({
      port: 8080,
      dataDir: "/var/lib/shop",
      databaseUrl: "postgres://u:p@db:5432/shop",
      publicOrigin: "https://shop.example.com",
      networkMode: "testnet",
      priceMarginBps: 250,
      seedDemoCatalog: false,
    });
  });

  it("reads a WalletConnect project id, and refuses one of the wrong shape", () => {
    expect(parseConfig({ NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID: "0123456789abcdef0123456789ABCDEF" }).walletConnectProjectId).toBe(
      "0123456789abcdef0123456789ABCDEF",
    );
    expect(() => parseConfig({ NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID: "my-project" })).toThrow(/NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID/);
  });

  it("reads a Redis URL, refuses another scheme, and never echoes it", () => {
    expect(parseConfig({ REDIS_URL: "redis://:pw@cache:6379/0" }).redisUrl).toBe("redis://:pw@cache:6379/0");
    expect(parseConfig({ REDIS_URL: "rediss://cache.example.com:6380" }).redisUrl).toBe("rediss://cache.example.com:6380");
    const err = configError({ REDIS_URL: "http://:secret-pw@cache:6379" });
    expect(err.message).toMatch(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(err.message).not.toContain("secret-pw");
  });

  it("treats empty values as unset", () => {
    expect(parseConfig({ PORT: "", DATABASE_URL: " " }).port).toBe(3000);
  });

  it("names each wrong variable", () => {
    const err = (() => {
      try {
        parseConfig({ PORT: "http", NETWORK_MODE: "prod", DATABASE_URL: "mysql://x", PUBLIC_ORIGIN: "shop" });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toMatch(/PORT: must be a port number \(got "http"\)/);
    expect(message).toMatch(/NETWORK_MODE: must be one of devnet, testnet, mainnet \(got "prod"\)/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(message).toMatch(/PUBLIC_ORIGIN: must be an http\(s\) origin/);
    expect(() => parseConfig({ PORT: "70000" })).toThrow(/PORT: must be between 1 and 65535/);
  });

  it("refuses a facilitator, an upstream or a rate feed over plain http in mainnet mode, but on loopback", () => {
    const plain = {
      FACILITATOR_URL: "http://facilitator.example/x402",
      UPSTREAM_API_URL: "http://supplier.example/api/v2",
      FX_RATES_URL: "http://rates.example/daily.xml",
    };
    const upstream = { UPSTREAM_API_TOKEN: "token-1" };
    const err = configError({ NETWORK_MODE: "mainnet", ...plain, ...upstream });
    expect(err.issues.map((i) => i.variable)).toEqual(["FACILITATOR_URL", "UPSTREAM_API_URL", "FX_RATES_URL"]);
    expect(err.message).toMatch(/FX_RATES_URL: must be an https URL in mainnet mode .*got http:\/\/rates\.example/);
    // One is enough to refuse the start.
    expect(configError({ NETWORK_MODE: "mainnet", FX_RATES_URL: plain.FX_RATES_URL }).issues.map((i) => i.variable)).toEqual(["FX_RATES_URL"]);
    // https, loopback http, and plain http outside mainnet are accepted.
    for (const host of ["localhost:4020", "127.0.0.1:4020", "127.8.9.10", "[::1]:4020"]) {
      const c = parseConfig({
        NETWORK_MODE: "mainnet",
        FACILITATOR_URL: `http://${host}/x402`,
        UPSTREAM_API_URL: `http://${host}/api/v2`,
        FX_RATES_URL: `http://${host}/fx`,
        ...upstream,
      });
      expect([c.facilitatorUrl, c.upstream?.url, c.fxRatesUrl]).toEqual([`http://${host}/x402`, `http://${host}/api/v2`, `http://${host}/fx`]);
    }
    expect(
      parseConfig({
        NETWORK_MODE: "mainnet",
        ...plain,
        ...upstream,
        FACILITATOR_URL: "https://facilitator.example/x402",
        UPSTREAM_API_URL: "https://supplier.example/api/v2",
        FX_RATES_URL: "https://rates.example/daily.xml",
      }).fxRatesUrl,
    ).toBe("https://rates.example/daily.xml");
    expect(parseConfig({ NETWORK_MODE: "testnet", ...plain, ...upstream }).fxRatesUrl).toBe(plain.FX_RATES_URL);
    // A name that merely starts like a loopback one is not one.
    expect(configError({ NETWORK_MODE: "mainnet", FX_RATES_URL: "http://localhost.example/fx" }).issues.map((i) => i.variable)).toEqual(["FX_RATES_URL"]);
    expect(configError({ NETWORK_MODE: "mainnet", FX_RATES_URL: "http://127.0.0.1.nip.io/fx" }).issues.map((i) => i.variable)).toEqual(["FX_RATES_URL"]);
  });

  it("reads how far a fetched exchange rate may move a price, 1 to 100 percent, 10 by default", () => {
    expect(parseConfig({ FX_MAX_MOVE_PERCENT: "25" }).fxMaxMovePercent).toBe(25);
    expect(parseConfig({ FX_MAX_MOVE_PERCENT: "" }).fxMaxMovePercent).toBe(10);
    for (const bad of ["0", "101", "2.5", "much"]) expect(() => parseConfig({ FX_MAX_MOVE_PERCENT: bad })).toThrow(/FX_MAX_MOVE_PERCENT: must be/);
  });

  it("reads the webhook retry base, a whole number of seconds from 1 to 3600", () => {
    expect(parseConfig({ WEBHOOK_RETRY_BASE_SECONDS: "30" }).webhookRetryBaseSeconds).toBe(30);
    expect(parseConfig({ WEBHOOK_RETRY_BASE_SECONDS: "" }).webhookRetryBaseSeconds).toBe(10);
    for (const bad of ["0", "-5", "1.5", "soon", "3601"]) {
      expect(() => parseConfig({ WEBHOOK_RETRY_BASE_SECONDS: bad })).toThrow(/WEBHOOK_RETRY_BASE_SECONDS: must be/);
    }
  });

  it("seeds the demo catalog on the devnet unless refused, and on testnet or mainnet only when asked for", () => {
    expect(parseConfig({}).seedDemoCatalog).toBe(true);
    expect(parseConfig({ SEED_DEMO_CATALOG: "false" }).seedDemoCatalog).toBe(false);
    expect(parseConfig({ NETWORK_MODE: "mainnet" }).seedDemoCatalog).toBe(false);
    expect(parseConfig({ NETWORK_MODE: "testnet" }).seedDemoCatalog).toBe(false);
    expect(parseConfig({ NETWORK_MODE: "testnet", SEED_DEMO_CATALOG: "true" }).seedDemoCatalog).toBe(true);
  });

  it("reads the devnet block time: 1 s by default, 0 for a block per transaction, tenths of a second up to a minute", () => {
    expect(parseConfig({ DEVNET_BLOCK_TIME: "0" }).devnetBlockTime).toBe(0);
    expect(parseConfig({ DEVNET_BLOCK_TIME: "0.5" }).devnetBlockTime).toBe(0.5);
    expect(parseConfig({ DEVNET_BLOCK_TIME: "" }).devnetBlockTime).toBe(1);
    for (const bad of ["-1", "61", "0.25", "fast"]) expect(() => parseConfig({ DEVNET_BLOCK_TIME: bad })).toThrow(/DEVNET_BLOCK_TIME/);
  });

  it("reads one facilitator gas key or a pool of them, and names a malformed list without echoing it", () => {
    const [a, b] = [`0x${"1".repeat(64)}`, `0x${"2".repeat(64)}`];
    expect(parseConfig({ FACILITATOR_EVM_PRIVATE_KEY: a }).facilitatorEvmPrivateKeys).toEqual([a]);
    expect(parseConfig({ FACILITATOR_EVM_PRIVATE_KEY: ` ${a} , ${b}` }).facilitatorEvmPrivateKeys).toEqual([a, b]);
    for (const bad of [`${a},`, `${a};${b}`, "0x12"]) {
      let message = "";
      try {
        parseConfig({ FACILITATOR_EVM_PRIVATE_KEY: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/FACILITATOR_EVM_PRIVATE_KEY/);
      expect(message).not.toContain("1111");
    }
  });

  it("reads a hosted facilitator's credentials: a header line, or a CDP API key (CDP's URL by default)", () => {
    const url = "https://facilitator.example.com/x402";
    expect(parseConfig({ FACILITATOR_URL: url, FACILITATOR_AUTH_HEADER: "Authorization: Bearer fk_0123" })).toMatchObject({
      facilitatorUrl: url,
      facilitatorAuth: { kind: "header", name: "Authorization", value: "Bearer fk_0123" },
    });
    expect(parseConfig({ FACILITATOR_URL: url, FACILITATOR_AUTH_HEADER: "X-Api-Key:k1" }).facilitatorAuth).toEqual({
      kind: "header",
      name: "X-Api-Key",
      value: "k1",
    });
    const pem = "-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEE\\n-----END EC PRIVATE KEY-----";
    expect(parseConfig({ NETWORK_MODE: "testnet", CDP_API_KEY_ID: "org/key", CDP_API_KEY_SECRET: pem })).toMatchObject({
      facilitatorUrl: CDP_FACILITATOR_URL,
      facilitatorAuth: { kind: "cdp", keyId: "org/key", keySecret: "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----" },
    });
    expect(parseConfig({ FACILITATOR_URL: url, CDP_API_KEY_ID: "org/key", CDP_API_KEY_SECRET: "c2VjcmV0" }).facilitatorUrl).toBe(url);
  });

  it("refuses facilitator credentials that cannot work, naming the variable and never echoing a secret", () => {
    const url = "https://facilitator.example.com";
    const refusal = (env: Record<string, string>) => {
      try {
        parseConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).issues.map((i) => `${i.variable}: ${i.message}`).join("\n");
      }
      return "accepted";
    };
    expect(refusal({ FACILITATOR_URL: url, FACILITATOR_AUTH_HEADER: "Bearer sekrit-value" })).toMatch(/^FACILITATOR_AUTH_HEADER: must be one header line/);
    expect(refusal({ FACILITATOR_URL: url, FACILITATOR_AUTH_HEADER: "Bearer sekrit-value" })).not.toContain("sekrit");
    expect(refusal({ FACILITATOR_URL: url, FACILITATOR_AUTH_HEADER: "X-Key: a\r\nX-Other: b" })).toMatch(/^FACILITATOR_AUTH_HEADER: must be one header line/);
    expect(refusal({ FACILITATOR_AUTH_HEADER: "X-Key: k" })).toMatch(/FACILITATOR_AUTH_HEADER: is sent to FACILITATOR_URL, which is not set/);
    expect(refusal({ NETWORK_MODE: "testnet", CDP_API_KEY_ID: "org/key" })).toMatch(/^CDP_API_KEY_SECRET: is required with the other half/);
    expect(refusal({ NETWORK_MODE: "testnet", CDP_API_KEY_SECRET: "sekrit" })).toMatch(/^CDP_API_KEY_ID: is required with the other half/);
    expect(refusal({ FACILITATOR_URL: url, CDP_API_KEY_ID: "k", CDP_API_KEY_SECRET: "s", FACILITATOR_AUTH_HEADER: "X-Key: k" })).toMatch(
      /FACILITATOR_AUTH_HEADER: cannot be used with a CDP API key/,
    );
    expect(refusal({ CDP_API_KEY_ID: "k", CDP_API_KEY_SECRET: "s" })).toMatch(/CDP's facilitator does not know the devnet's chains/);
  });

  it("reads the refund keys, and names a malformed one without echoing it", () => {
    const evm = `0x${"ab".repeat(32)}`;
    const solana = "4".repeat(88);
    expect(parseConfig({ REFUND_EVM_PRIVATE_KEY: evm, REFUND_SOLANA_PRIVATE_KEY: solana })).toMatchObject({
      refundEvmPrivateKey: evm,
      refundSolanaPrivateKey: solana,
    });
    expect(parseConfig({ REFUND_EVM_PRIVATE_KEY: " ", REFUND_SOLANA_PRIVATE_KEY: "" })).toMatchObject({
      refundEvmPrivateKey: undefined,
      refundSolanaPrivateKey: undefined,
    });

    const badEvm = "0x1234secret";
    expect(() => parseConfig({ REFUND_EVM_PRIVATE_KEY: badEvm })).toThrow(ConfigError);
    expect(() => parseConfig({ REFUND_EVM_PRIVATE_KEY: badEvm })).toThrow(/REFUND_EVM_PRIVATE_KEY: must be a 0x-prefixed 32-byte hex private key/);
    expect(() => parseConfig({ REFUND_EVM_PRIVATE_KEY: "ab".repeat(32) })).toThrow(/REFUND_EVM_PRIVATE_KEY/);
    const badSolana = `0O${"4".repeat(86)}`; // 0 and O are not base58
    expect(() => parseConfig({ REFUND_SOLANA_PRIVATE_KEY: badSolana })).toThrow(/REFUND_SOLANA_PRIVATE_KEY: must be a base58 64-byte Solana secret key/);
    expect(() => parseConfig({ REFUND_SOLANA_PRIVATE_KEY: evm })).toThrow(/REFUND_SOLANA_PRIVATE_KEY/);
    // A key is a secret: the message names the variable but never repeats its value.
    for (const [variable, value] of [
      ["REFUND_EVM_PRIVATE_KEY", badEvm],
      ["REFUND_SOLANA_PRIVATE_KEY", badSolana],
    ] as const) {
      const err = configError({ [variable]: value });
      expect(err.issues.map((i) => i.variable)).toEqual([variable]);
      expect(err.message).not.toContain(value);
    }
  });

  it("refuses a Vercel start without DATABASE_URL, SESSION_SECRET, NETWORK_MODE or CRON_SECRET, naming each", () => {
    const vercel = { VERCEL: "1" };
    const missing = serverRequirements(parseConfig(vercel), vercel).map((i) => i.variable);
    expect(missing).toEqual(["DATABASE_URL", "NETWORK_MODE", "CRON_SECRET", "SESSION_SECRET"]);
    const message = new ConfigError(serverRequirements(parseConfig(vercel), vercel)).message;
    expect(message).toMatch(/DATABASE_URL: is required on Vercel/);
    const full = { ...vercel, DATABASE_URL: "postgres://u:p@db/shop", NETWORK_MODE: "testnet", CRON_SECRET: "c".repeat(32), SESSION_SECRET: "s".repeat(32) };
    expect(serverRequirements(parseConfig(full), full)).toEqual([]);
    // The devnet's chains do not run in functions.
    const devnet = { ...full, NETWORK_MODE: "devnet" };
    expect(serverRequirements(parseConfig(devnet), devnet).map((i) => i.variable)).toEqual(["NETWORK_MODE"]);
    // Nothing is written outside /tmp: the data folder defaults there.
    expect(parseConfig(vercel, "/var/task").dataDir).toBe("/tmp/storefront");
  });

  it("asks for SESSION_SECRET when several servers may share the database, and for nothing on a plain devnet", () => {
    expect(serverRequirements(parseConfig({}), {})).toEqual([]);
    expect(serverRequirements(parseConfig({ DATABASE_URL: "postgres://db/shop" }), {}).map((i) => i.variable)).toEqual(["SESSION_SECRET"]);
    expect(serverRequirements(parseConfig({ NETWORK_MODE: "testnet" }), {}).map((i) => i.variable)).toEqual(["SESSION_SECRET"]);
    expect(serverRequirements(parseConfig({ DATABASE_URL: "postgres://db/shop", SESSION_SECRET: "s".repeat(32) }), {})).toEqual([]);
  });
});

function configError(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(Object.keys(env))}`);
}

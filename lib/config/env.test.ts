import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./env";

describe("parseConfig", () => {
  it("has defaults for a fresh machine", () => {
    const c = parseConfig({}, "/srv/shop");
    expect(c).toEqual({
      port: 3000,
      dataDir: "/srv/shop/.data",
      databaseUrl: undefined,
      publicOrigin: undefined,
      networkMode: "devnet",
      priceMarginBps: 0,
      seedDemoCatalog: true,
      sessionSecret: undefined,
      invoiceTtlMinutes: 15,
      facilitatorUrl: undefined,
      facilitatorEvmPrivateKey: undefined,
      facilitatorSolanaPrivateKey: undefined,
      payTo: { evm: undefined, solana: undefined },
      rpcUrls: { base: undefined, arbitrum: undefined, polygon: undefined, solana: undefined },
    });
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
});

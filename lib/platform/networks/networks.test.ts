import { describe, expect, it } from "vitest";
import { usdc } from "viem/tokens";
import { parseConfig } from "@/lib/platform/config";
import { missingPaymentSettings, publicNetworks } from "./";

describe("network tables", () => {
  it("needs nothing in devnet mode", () => {
    expect(missingPaymentSettings(parseConfig({}))).toEqual([]);
  });

  it("names what a testnet or mainnet configuration lacks", () => {
    const missing = missingPaymentSettings(parseConfig({ NETWORK_MODE: "mainnet" }));
    expect(missing.join("\n")).toMatch(/PUBLIC_ORIGIN/);
    expect(missing.join("\n")).toMatch(/PAY_TO_EVM/);
    expect(missing.join("\n")).toMatch(/PAY_TO_SOLANA/);
    expect(missing.join("\n")).toMatch(/FACILITATOR_URL, or FACILITATOR_EVM_PRIVATE_KEY/);
    const remote = parseConfig({
      NETWORK_MODE: "testnet",
      PUBLIC_ORIGIN: "https://shop.example.com",
      PAY_TO_EVM: "0x000000000000000000000000000000000000dEaD",
      PAY_TO_SOLANA: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      FACILITATOR_URL: "https://facilitator.example.com",
    });
    expect(missingPaymentSettings(remote)).toEqual([]);
  });

  it("lists the real networks with their USDC domains, RPC overrides and payTo", () => {
    const c = parseConfig({
      NETWORK_MODE: "mainnet",
      PAY_TO_EVM: "0x000000000000000000000000000000000000dEaD",
      PAY_TO_SOLANA: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      RPC_URL_POLYGON: "https://polygon.example.com",
    });
    const nets = publicNetworks(c);
    expect(nets.map((n) => n.network)).toEqual(["eip155:8453", "eip155:42161", "eip155:137", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"]);
    expect(nets.find((n) => n.key === "polygon")?.rpcUrl).toBe("https://polygon.example.com");
    expect(nets.every((n) => n.payTo)).toBe(true);
    const testnet = publicNetworks({ ...c, networkMode: "testnet" });
    const baseSepolia = testnet.find((n) => n.key === "base");
    expect(baseSepolia?.kind === "evm" && baseSepolia.usdc).toMatchObject({ name: "USDC", version: "2" });
    expect(testnet.map((n) => n.key)).toEqual(["base", "arbitrum", "polygon", "solana"]);
  });

  it("offers Polygon Amoy on the testnet wherever Base Sepolia and Arbitrum Sepolia are offered", () => {
    const c = parseConfig({
      NETWORK_MODE: "testnet",
      PAY_TO_EVM: "0x000000000000000000000000000000000000dEaD",
      PAY_TO_SOLANA: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      RPC_URL_POLYGON: "https://amoy.example.com",
    });
    const testnet = publicNetworks(c);
    expect(testnet.map((n) => n.network)).toEqual(["eip155:84532", "eip155:421614", "eip155:80002", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"]);
    const amoy = testnet.find((n) => n.network === "eip155:80002");
    expect(amoy).toMatchObject({
      key: "polygon",
      kind: "evm",
      chainId: 80002,
      name: "Polygon Amoy",
      rpcUrl: "https://amoy.example.com",
      payTo: "0x000000000000000000000000000000000000dEaD",
      // Circle's USDC on Amoy, as viem's token list has it; its EIP-712 domain is ("USDC", "2").
      usdc: { address: "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582", name: "USDC", version: "2", decimals: 6 },
    });
    expect(amoy?.explorerTx?.("0xab")).toBe("https://amoy.polygonscan.com/tx/0xab");
    // The mainnet keeps Polygon PoS itself.
    const mainnet = publicNetworks({ ...c, networkMode: "mainnet" });
    expect(mainnet.find((n) => n.key === "polygon")?.network).toBe("eip155:137");
    // Every EVM USDC address is Circle's, as viem's token list gives it per chain id.
    const circle = usdc.addresses as Record<number, string>;
    for (const n of [...testnet, ...mainnet]) if (n.kind === "evm") expect(n.usdc.address, n.name).toBe(circle[n.chainId]);
  });
});

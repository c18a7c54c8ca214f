import { describe, expect, it } from "vitest";
import { isAddressOnlyMethod, methodCoin, methodNetworkKey, unavailableMethod } from "./payment-methods";

describe("payment methods", () => {
  it("names the network of a USDC method", () => {
    expect(methodNetworkKey("usdc_polygon")).toBe("polygon");
    expect(methodNetworkKey("balance")).toBeUndefined();
    expect(methodNetworkKey("usdc_doge")).toBeUndefined();
    // Ether is paid by address only: no x402 network.
    expect(methodNetworkKey("eth_base")).toBeUndefined();
  });

  it("names the coin and network of a method paid by address", () => {
    expect(methodCoin("usdc_base")).toEqual({ key: "base", coin: "USDC" });
    expect(methodCoin("eth_arbitrum")).toEqual({ key: "arbitrum", coin: "ETH" });
    // Ethereum: by address only, ether and USDC.
    expect(methodCoin("ethereum")).toEqual({ key: "ethereum", coin: "ETH" });
    expect(methodCoin("usdc_erc20")).toEqual({ key: "ethereum", coin: "USDC" });
    expect(methodNetworkKey("usdc_erc20")).toBeUndefined();
    expect(methodNetworkKey("usdc_ethereum")).toBeUndefined();
    expect(isAddressOnlyMethod("usdc_erc20")).toBe(true);
    expect(isAddressOnlyMethod("eth_base")).toBe(true);
    expect(isAddressOnlyMethod("usdc_base")).toBe(false);
    expect(isAddressOnlyMethod("balance")).toBe(false);
    expect(methodCoin("eth_solana")).toBeUndefined();
    expect(methodCoin("eth_doge")).toBeUndefined();
    expect(methodCoin("balance")).toBeUndefined();
  });

  it("refuses a USDC method whose network the mode lacks, and lists what is offered", () => {
    // A shop without Polygon (every mode has all four today: testnet offers Polygon Amoy).
    const withoutPolygon = [{ key: "base" as const }, { key: "arbitrum" as const }, { key: "solana" as const }];
    expect(unavailableMethod("usdc_base", withoutPolygon, "testnet")).toBeUndefined();
    expect(unavailableMethod("balance", withoutPolygon, "testnet")).toBeUndefined();
    expect(unavailableMethod("usdc_polygon", withoutPolygon, "testnet")).toBe(
      "Payment method usdc_polygon is not available on this shop (testnet mode has no such network). Available: balance, gift_card, usdc_base, usdc_arbitrum, usdc_solana, eth_base, eth_arbitrum.",
    );
  });
});

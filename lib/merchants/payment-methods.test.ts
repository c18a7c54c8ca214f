import { describe, expect, it } from "vitest";
import { methodNetworkKey, unavailableMethod } from "./payment-methods";

describe("payment methods", () => {
  it("names the network of a USDC method", () => {
    expect(methodNetworkKey("usdc_polygon")).toBe("polygon");
    expect(methodNetworkKey("balance")).toBeUndefined();
    expect(methodNetworkKey("usdc_doge")).toBeUndefined();
  });

  it("refuses a USDC method whose network the mode lacks, and lists what is offered", () => {
    const testnet = [{ key: "base" as const }, { key: "arbitrum" as const }, { key: "solana" as const }];
    expect(unavailableMethod("usdc_base", testnet, "testnet")).toBeUndefined();
    expect(unavailableMethod("balance", testnet, "testnet")).toBeUndefined();
    expect(unavailableMethod("usdc_polygon", testnet, "testnet")).toBe(
      "Payment method usdc_polygon is not available on this shop (testnet mode has no such network). Available: balance, usdc_base, usdc_arbitrum, usdc_solana.",
    );
  });
});

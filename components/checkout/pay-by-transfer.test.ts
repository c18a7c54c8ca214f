import { describe, expect, it } from "vitest";
import { PAYMENT_METHODS } from "@/lib/merchants";
import { refundAddressProblem, transferMethods } from "./pay-by-transfer";

const evm = (key: string, name: string) => ({
  key,
  network: "eip155:1" as const,
  chainId: 1,
  name,
  rpcUrl: "http://x",
  usdc: "0x0000000000000000000000000000000000000001" as const,
});

describe("the checkout's ways to pay by a transfer", () => {
  it("offers USDC on every network, ether where it is the network's coin, and USDC on Solana, each a method the API takes", () => {
    const methods = transferMethods({
      evm: [evm("base", "Base"), evm("arbitrum", "Arbitrum"), evm("polygon", "Polygon")],
      addressOnlyEvm: [evm("ethereum", "Ethereum")],
      solana: { network: "solana:x", name: "Solana", rpcUrl: "http://x", mint: "m" },
    });
    expect(methods.map((m) => m.method)).toEqual([
      "usdc_base",
      "eth_base",
      "usdc_arbitrum",
      "eth_arbitrum",
      "usdc_polygon",
      "usdc_erc20",
      "ethereum",
      "usdc_solana",
    ]);
    for (const m of methods) expect(PAYMENT_METHODS).toContain(m.method);
    expect(methods.find((m) => m.method === "ethereum")?.label).toBe("ETH on Ethereum");
  });

  it("checks a refund address against the method's chain, and lets it be left empty", () => {
    expect(refundAddressProblem("")).toBeNull();
    expect(refundAddressProblem(" 0x000000000000000000000000000000000000dEaD ")).toBeNull();
    expect(refundAddressProblem("0x1234")).toMatch(/not an EVM address/);
    expect(refundAddressProblem("So11111111111111111111111111111111111111112")).toMatch(/not an EVM address/);
    expect(refundAddressProblem("So11111111111111111111111111111111111111112", true)).toBeNull();
    expect(refundAddressProblem("0x000000000000000000000000000000000000dEaD", true)).toMatch(/not a Solana address/);
  });
});

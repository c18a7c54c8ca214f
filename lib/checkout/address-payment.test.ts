import { describe, expect, it } from "vitest";
import { coinToCents, formatCoin, usdcToCoin } from "./address-payment";

describe("amounts of a payment by address", () => {
  it("converts the invoice's USDC amount to the coin, rounding up to the smallest unit", () => {
    expect(usdcToCoin(10_000_000n, "USDC", "1")).toBe(10_000_000n);
    // 10 USD at 3,000 USD per ether: 0.00333… ether, rounded up to 8 decimals.
    expect(usdcToCoin(10_000_000n, "ETH", "3000")).toBe(3_333_340_000_000_000n);
    expect(usdcToCoin(3_000_000_000n, "ETH", "3000")).toBe(10n ** 18n);
    expect(usdcToCoin(1n, "ETH", "2999.12345678")).toBe(10_000_000_000n);
    expect(usdcToCoin(12_345_678n, "ETH", "2999.12345678")).toBe(4_116_430_000_000_000n);
    expect(() => usdcToCoin(1n, "ETH", "0")).toThrow();
  });

  it("credits in whole cents at the locked rate, rounding down", () => {
    expect(coinToCents({ exchangeRate: "1", decimals: 6 }, 2_345_678n)).toBe(234n);
    expect(coinToCents({ exchangeRate: "3000", decimals: 18 }, 10n ** 18n)).toBe(300_000n);
    expect(coinToCents({ exchangeRate: "3000", decimals: 18 }, 3_333_333_333_333n)).toBe(0n);
  });

  it("writes amounts in the coin's units without trailing zeros", () => {
    expect(formatCoin(10_000_000n, 6)).toBe("10");
    expect(formatCoin(1n, 18)).toBe("0.000000000000000001");
    expect(formatCoin(1_500_000n, 6)).toBe("1.5");
    expect(formatCoin(0n, 6)).toBe("0");
  });
});

import { describe, expect, it } from "vitest";
import { centsToDecimal, centsToUsdc, formatMinorUnits, parseMinorUnits, USDC_PER_CENT, usdcToCents, usdcToDecimal } from "./money";

describe("money amounts", () => {
  it("converts cents and USDC atomic units, rounding as asked", () => {
    expect(USDC_PER_CENT).toBe(10_000n);
    expect(centsToUsdc(2550n)).toBe(25_500_000n);
    expect(usdcToCents(25_500_000n)).toBe(2550n);
    expect(usdcToCents(25_500_001n)).toBe(2551n);
    expect(usdcToCents(25_509_999n, "down")).toBe(2550n);
    expect(usdcToCents(0n)).toBe(0n);
  });

  it("writes decimal strings: USDC without trailing zeros, dollars with two decimals and a sign", () => {
    expect(usdcToDecimal(12_500_000n)).toBe("12.5");
    expect(usdcToDecimal(1n)).toBe("0.000001");
    expect(usdcToDecimal(5_000_000n)).toBe("5");
    expect(centsToDecimal(2550n)).toBe("25.50");
    expect(centsToDecimal(-300n)).toBe("-3.00");
    expect(centsToDecimal(7n)).toBe("0.07");
  });

  it("reads and writes minor units of a currency by its exponent", () => {
    expect(parseMinorUnits("9.99", 2)).toBe(999n);
    expect(parseMinorUnits("500", 0)).toBe(500n);
    expect(parseMinorUnits("9.999", 2)).toBeUndefined();
    expect(parseMinorUnits("-1", 2)).toBeUndefined();
    expect(parseMinorUnits("1e3", 2)).toBeUndefined();
    expect(formatMinorUnits(999n, 2)).toBe("9.99");
    expect(formatMinorUnits(1000n, 2)).toBe("10");
  });
});

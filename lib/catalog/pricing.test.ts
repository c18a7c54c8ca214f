import { describe, expect, it } from "vitest";
import { currencyExponent } from "./currency";
import { parseMinorUnits, formatMinorUnits, usdcToDecimal } from "@/lib/platform/money";
import { parseRate, tableFxSource } from "./fx";
import { aboveCost, formatFaceValue, formatPackage, formatUsd, formatUsdc, formatUsdcDecimal, priceUsdc, PricingError, rangeCostCents } from "./pricing";

const fx = tableFxSource("2026-11-02", { USD: "1", EUR: "1.0812", JPY: "0.006612", KWD: "3.2531" });

describe("priceUsdc", () => {
  it("prices US dollars one to one, in atomic units", () => {
    expect(priceUsdc({ faceValueMinor: 1000n, currency: "USD" }, { fx, marginBps: 0 })).toBe(10_000_000n);
  });

  it("converts through the FX table and rounds up to the cent", () => {
    // 25 EUR * 1.0812 = 27.03 USD exactly
    expect(priceUsdc({ faceValueMinor: 2500n, currency: "EUR" }, { fx, marginBps: 0 })).toBe(27_030_000n);
    // 9.99 EUR * 1.0812 = 10.801188 -> 10.81
    expect(priceUsdc({ faceValueMinor: 999n, currency: "EUR" }, { fx, marginBps: 0 })).toBe(10_810_000n);
  });

  it("knows currencies without minor units and with three", () => {
    // 5000 JPY * 0.006612 = 33.06
    expect(priceUsdc({ faceValueMinor: 5000n, currency: "JPY" }, { fx, marginBps: 0 })).toBe(33_060_000n);
    // 10.000 KWD = 10000 fils * 3.2531 / 1000 = 32.531 -> 32.54
    expect(priceUsdc({ faceValueMinor: 10_000n, currency: "KWD" }, { fx, marginBps: 0 })).toBe(32_540_000n);
  });

  it("adds the margin in basis points", () => {
    // 10 USD + 2.5 % = 10.25
    expect(priceUsdc({ faceValueMinor: 1000n, currency: "USD" }, { fx, marginBps: 250 })).toBe(10_250_000n);
    // 0.99 USD + 3 % = 1.0197 -> 1.02
    expect(priceUsdc({ faceValueMinor: 99n, currency: "USD" }, { fx, marginBps: 300 })).toBe(1_020_000n);
  });

  it("is monotonic: a larger face value never costs less", () => {
    let last = 0n;
    for (let minor = 0n; minor < 5000n; minor += 37n) {
      const p = priceUsdc({ faceValueMinor: minor, currency: "EUR" }, { fx, marginBps: 175 });
      expect(p).toBeGreaterThanOrEqual(last);
      expect(p % 10_000n).toBe(0n);
      last = p;
    }
  });

  it("refuses a currency without a rate, a negative amount or a bad margin", () => {
    expect(() => priceUsdc({ faceValueMinor: 100n, currency: "GBP" }, { fx, marginBps: 0 })).toThrow(PricingError);
    expect(() => priceUsdc({ faceValueMinor: -1n, currency: "USD" }, { fx, marginBps: 0 })).toThrow(PricingError);
    expect(() => priceUsdc({ faceValueMinor: 1n, currency: "USD" }, { fx, marginBps: 1.5 })).toThrow(PricingError);
  });
});

describe("amounts", () => {
  it("parses decimal face values into minor units and back", () => {
    expect(parseMinorUnits("10", 2)).toBe(1000n);
    expect(parseMinorUnits("9.99", 2)).toBe(999n);
    expect(parseMinorUnits("9.90", 2)).toBe(990n);
    expect(parseMinorUnits("5000", 0)).toBe(5000n);
    expect(parseMinorUnits("9.999", 2)).toBeUndefined();
    expect(parseMinorUnits("1.5", 0)).toBeUndefined();
    expect(parseMinorUnits("-1", 2)).toBeUndefined();
    expect(parseMinorUnits("1e3", 2)).toBeUndefined();
    expect(formatMinorUnits(999n, 2)).toBe("9.99");
    expect(formatMinorUnits(1000n, 2)).toBe("10");
    expect(formatMinorUnits(990n, 2)).toBe("9.9");
  });

  it("knows currency exponents", () => {
    expect(currencyExponent("USD")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("usd")).toBeUndefined();
    expect(currencyExponent("XYZW")).toBeUndefined();
  });

  it("parses rates exactly", () => {
    expect(parseRate("1.0812")).toEqual({ numerator: 10812n, denominator: 10000n });
    expect(parseRate("3")).toEqual({ numerator: 3n, denominator: 1n });
    expect(() => parseRate("1,5")).toThrow();
  });

  it("formats prices for people and for APIs", () => {
    expect(formatUsd(27_030_000n)).toBe("$27.03");
    expect(formatUsd(1_234_560_000n)).toBe("$1,234.56");
    expect(formatUsdc(27_030_000n)).toBe("27.03 USDC");
    expect(formatUsdc(1_234_500_000n)).toBe("1,234.50 USDC");
    expect(usdcToDecimal(27_030_000n)).toBe("27.03");
    expect(usdcToDecimal(10_000_000n)).toBe("10");
    expect(usdcToDecimal(1n)).toBe("0.000001");
  });

  it("writes USDC amounts for people with two decimals, more only when they have them", () => {
    expect(formatUsdc(10_000_000n)).toBe("10.00 USDC");
    expect(formatUsdc(0n)).toBe("0.00 USDC");
    expect(formatUsdc(1_000n)).toBe("0.001 USDC");
    expect(formatUsdc(1n)).toBe("0.000001 USDC");
    expect(formatUsdc(-2_500_000n)).toBe("-2.50 USDC");
    expect(formatUsdcDecimal("10")).toBe("10.00 USDC");
    expect(formatUsdcDecimal("12.74")).toBe("12.74 USDC");
    expect(formatUsdcDecimal("5.5")).toBe("5.50 USDC");
  });

  it("names a package that is an amount as money in its currency, any other as it is", () => {
    expect(formatPackage("10", "GBP")).toBe("£10");
    expect(formatPackage("5", "USD")).toBe("$5");
    expect(formatPackage("25", "EUR")).toBe("€25");
    expect(formatPackage("7.5", "EUR")).toBe("€7.50");
    expect(formatPackage("5000", "JPY")).toBe("¥5,000");
    expect(formatPackage("100", "MXN")).toBe("MX$100");
    expect(formatPackage("1GB, 7 Days", "USD")).toBe("1GB, 7 Days");
    expect(formatPackage("1,000 V-Bucks", "USD")).toBe("1,000 V-Bucks");
    expect(formatPackage("10", "XYZ")).toBe("XYZ\u00a010");
    expect(formatPackage("10", "US")).toBe("10 US");
    expect(formatFaceValue(2500n, "EUR")).toBe("€25");
    expect(formatFaceValue(899n, "USD")).toBe("$8.99");
  });
});

describe("prices over a supplier's cost", () => {
  it("never sells below the cost plus the margin, rounded up to the cent; a price above it stands", () => {
    // Cost 10.01, 5 %: 10.5105 -> 10.52.
    expect(aboveCost(10_000_000n, 1001n, 500)).toBe(10_520_000n);
    expect(aboveCost(11_000_000n, 1001n, 500)).toBe(11_000_000n);
    expect(aboveCost(11_000_000n, null, 500)).toBe(11_000_000n);
  });

  it("costs an amount of an open range at the supplier's rate per unit, rounded up to the cent", () => {
    // 37.50 USD at 1.000001 USD per unit: 37.5000375 -> 37.51.
    expect(rangeCostCents(3750n, "1.000001", "USD")).toBe(3751n);
    expect(rangeCostCents(3750n, "1", "USD")).toBe(3750n);
    // 5,000 JPY (no minor unit) at 0.0067 USD: 33.50.
    expect(rangeCostCents(5000n, "0.0067", "JPY")).toBe(3350n);
    expect(rangeCostCents(3750n, null, "USD")).toBeNull();
  });
});

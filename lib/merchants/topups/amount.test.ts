import { describe, expect, it } from "vitest";
import { topupAmount } from "./amount";
import { centsToUsdc } from "@/lib/platform/money";

describe("topupAmount", () => {
  it.each([
    ["25", 2500n],
    ["25.5", 2550n],
    [" 25.05 ", 2505n],
    ["$1,000.00", 100_000n],
    ["1", 100n],
    ["10000", 1_000_000n],
  ])("reads %j as %s cents", (input, cents) => {
    expect(topupAmount.parse(input)).toBe(cents);
  });

  it.each([
    ["", /amount in USD/],
    ["abc", /amount in USD/],
    ["1.005", /two decimals/],
    ["-5", /amount in USD/],
    ["0.99", /1\.00 to 10,000\.00/],
    ["10000.01", /1\.00 to 10,000\.00/],
    ["1e3", /amount in USD/],
  ])("refuses %j", (input, message) => {
    const r = topupAmount.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(message);
  });

  it("converts cents to USDC atomic units", () => {
    expect(centsToUsdc(2550n)).toBe(25_500_000n);
  });
});

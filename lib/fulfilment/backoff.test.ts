import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";

describe("retryDelayMs", () => {
  it("doubles from 2 s with each attempt and stops at 10 minutes", () => {
    expect([1, 2, 3, 4, 8].map(retryDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 256_000]);
    expect(retryDelayMs(9)).toBe(512_000);
    expect(retryDelayMs(10)).toBe(600_000);
    expect(retryDelayMs(40)).toBe(600_000);
  });

  it("gives up after a few minutes of trying, not hours", () => {
    const total = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(10 * 60_000);
  });
});

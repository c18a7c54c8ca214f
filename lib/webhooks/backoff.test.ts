import { describe, expect, it } from "vitest";
import { JITTER, MAX_RETRY_DELAY_MS, maxAttempts, nextRetryDelayMs, RETRY_SPAN_MS, retrySchedule } from "./backoff";

const HOUR = 3_600_000;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("webhook retry schedule", () => {
  it("grows from the base, three times each step, capped at 8 h, over about a day (default base 10 s)", () => {
    const s = retrySchedule(10);
    expect(s.map((ms) => ms / 1000)).toEqual([10, 30, 90, 270, 810, 2430, 7290, 21_870, 28_800, 28_800]);
    expect(maxAttempts(10)).toBe(11);
    expect(sum(s) / HOUR).toBeCloseTo(25.1, 1);
  });

  it("spans about a day whatever the base", () => {
    for (const base of [1, 5, 10, 60, 600, 3600]) {
      const s = retrySchedule(base);
      for (let i = 1; i < s.length; i++) expect(s[i]).toBeGreaterThanOrEqual(s[i - 1]!);
      expect(Math.max(...s)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
      // Enough retries to reach a day, and no more than one extra wait past it.
      expect(sum(s)).toBeGreaterThanOrEqual(RETRY_SPAN_MS);
      expect(sum(s.slice(0, -1))).toBeLessThan(RETRY_SPAN_MS);
      expect(sum(s)).toBeLessThan(RETRY_SPAN_MS + MAX_RETRY_DELAY_MS);
    }
    expect(() => retrySchedule(0)).toThrow(RangeError);
  });

  it("jitters each wait within ±20 % (never past the cap), and gives up after the last", () => {
    const s = retrySchedule(10);
    for (let attempts = 1; attempts <= s.length; attempts++) {
      const nominal = s[attempts - 1]!;
      const low = nextRetryDelayMs(attempts, 10, { random: () => 0 })!;
      const high = nextRetryDelayMs(attempts, 10, { random: () => 1 - Number.EPSILON })!;
      expect(low).toBe(Math.round(nominal * (1 - JITTER)));
      expect(Math.min(Math.round(nominal * (1 + JITTER)), MAX_RETRY_DELAY_MS) - high).toBeLessThanOrEqual(1);
      expect(nextRetryDelayMs(attempts, 10, { random: () => 0.5 })).toBe(nominal);
      for (let i = 0; i < 50; i++) {
        const d = nextRetryDelayMs(attempts, 10)!;
        expect(d).toBeGreaterThanOrEqual(low);
        expect(d).toBeLessThanOrEqual(high);
      }
    }
    expect(nextRetryDelayMs(maxAttempts(10), 10)).toBeNull();
  });

  it("draws different waits for messages that failed together", () => {
    const waits = new Set(Array.from({ length: 20 }, () => nextRetryDelayMs(3, 10)));
    expect(waits.size).toBeGreaterThan(10);
  });

  it("adds up to between 20 and 30 hours of waiting with jitter", () => {
    for (const r of [0, 1 - Number.EPSILON]) {
      let total = 0;
      for (let a = 1; a < maxAttempts(10); a++) total += nextRetryDelayMs(a, 10, { random: () => r })!;
      expect(total / HOUR).toBeGreaterThan(20);
      expect(total / HOUR).toBeLessThan(30);
    }
  });

  it("waits at least as long as the receiver's Retry-After, up to the cap", () => {
    expect(nextRetryDelayMs(1, 10, { random: () => 0.5, retryAfterMs: 120_000 })).toBe(120_000);
    expect(nextRetryDelayMs(1, 10, { random: () => 0.5, retryAfterMs: 1_000 })).toBe(10_000);
    expect(nextRetryDelayMs(1, 10, { random: () => 0.5, retryAfterMs: 48 * HOUR })).toBe(MAX_RETRY_DELAY_MS);
  });
});

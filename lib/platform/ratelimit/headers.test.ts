import { describe, expect, it } from "vitest";
import { rateLimitHeaders, type PolicyState } from "./headers";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0); // Unix 1767268800
const minute = { name: "get-products", points: 60, durationSec: 60 };
const hourly = { name: "products-hourly", points: 1000, durationSec: 3600 };
const state = (policy: PolicyState["policy"], remaining: number, msBeforeReset: number, refused = false): PolicyState => ({
  policy,
  remaining,
  msBeforeReset,
  refused,
});

describe("rate-limit headers", () => {
  it("gives limit, remaining and the reset as Unix seconds, in the X- and IETF fields", () => {
    expect(rateLimitHeaders([state(minute, 59, 42_300)], NOW)).toEqual({
      "X-RateLimit-Limit": "60",
      "X-RateLimit-Remaining": "59",
      "X-RateLimit-Reset": String(NOW / 1000 + 43),
      "RateLimit-Limit": "60",
      "RateLimit-Remaining": "59",
      "RateLimit-Reset": "43",
      "RateLimit-Policy": '"get-products";q=60;w=60',
      RateLimit: '"get-products";r=59;t=43',
    });
  });

  it("reports the tighter of two policies in the single-policy fields, and both in the IETF lists", () => {
    // Plenty left this minute, little left this hour: the hour is what the client must watch.
    const headers = rateLimitHeaders([state(minute, 55, 30_000), state(hourly, 3, 1_800_000)], NOW);
    expect(headers).toMatchObject({
      "X-RateLimit-Limit": "1000",
      "X-RateLimit-Remaining": "3",
      "X-RateLimit-Reset": String(NOW / 1000 + 1800),
      "RateLimit-Policy": '"get-products";q=60;w=60, "products-hourly";q=1000;w=3600',
      RateLimit: '"get-products";r=55;t=30, "products-hourly";r=3;t=1800',
    });
    expect(headers).not.toHaveProperty("Retry-After");
    // The other way round, the minute is the tighter one.
    expect(rateLimitHeaders([state(minute, 2, 30_000), state(hourly, 900, 1_800_000)], NOW)["X-RateLimit-Limit"]).toBe("60");
    // On a tie, the one that frees up later.
    expect(rateLimitHeaders([state(minute, 5, 30_000), state(hourly, 5, 1_800_000)], NOW)["X-RateLimit-Limit"]).toBe("1000");
  });

  it("on a refusal reports the refusing policy and adds Retry-After in whole seconds", () => {
    const headers = rateLimitHeaders([state(minute, 0, 12_001, true), state(hourly, 500, 1_800_000)], NOW);
    expect(headers).toMatchObject({
      "X-RateLimit-Limit": "60",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(NOW / 1000 + 13),
      "Retry-After": "13",
    });
    // Retry-After is never 0: a window ending this very millisecond still says 1.
    expect(rateLimitHeaders([state(minute, 0, 0, true)], NOW)["Retry-After"]).toBe("1");
  });

  it("writes the IETF fields as structured-field lists of strings with integer parameters", () => {
    const headers = rateLimitHeaders([state(minute, 55, 30_000), state(hourly, 3, 1_800_000)], NOW);
    const item = /^"[a-z0-9-]+";[a-z]+=\d+;[a-z]+=\d+$/;
    for (const field of ["RateLimit-Policy", "RateLimit"]) {
      for (const member of headers[field]!.split(", ")) expect(member).toMatch(item);
    }
    expect(Number.isInteger(Number(headers["X-RateLimit-Reset"]))).toBe(true);
  });

  it("adds nothing when no policy applied", () => {
    expect(rateLimitHeaders([], NOW)).toEqual({});
  });
});

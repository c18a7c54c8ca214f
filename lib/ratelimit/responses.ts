import { V2Error } from "@/lib/api-v2/envelope";
import type { RateLimitDecision } from "./limiter";
import type { LimitRule } from "./policies";

/**
 * The merchant API's error code for a refused request. The spec lists none (only "429 Too Many Requests; retry
 * after the reset time in X-RateLimit-Reset"), so it is the status's own name, in the spec's snake_case.
 */
export const RATE_LIMIT_ERROR_CODE = "too_many_requests";

/**
 * The merchant API's answer to a refused request: 429, the API's error envelope, and the decision's headers
 * (Retry-After among them). `endpoint` is the `meta._endpoint` of the envelope, the path as requested below
 * `/api/v2` (e.g. "/products/apple-us").
 */
export function rateLimitedResponse(endpoint: string, decision: RateLimitDecision): Response {
  return new V2Error(429, RATE_LIMIT_ERROR_CODE, rateLimitMessage(decision)).toResponse(endpoint, decision.headers);
}

/** "Rate limit exceeded: 1 request per 3 seconds. Retry after 3 seconds." for a refused decision. */
export function rateLimitMessage(decision: RateLimitDecision): string {
  if (decision.allowed || !decision.refusedBy || decision.retryAfterSec === undefined) {
    throw new Error("A rate-limit message needs a refused decision");
  }
  return `Rate limit exceeded: ${describeRule(decision.refusedBy)}. Retry after ${plural(decision.retryAfterSec, "second")}.`;
}

/** "1 request per 3 seconds", "60 requests per 10 minutes", "1000 requests per hour". */
export function describeRule(rule: LimitRule): string {
  return `${plural(rule.points, "request")} per ${describeWindow(rule.durationSec)}`;
}

function describeWindow(seconds: number): string {
  for (const [unit, size] of [
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
  ] as const) {
    if (seconds % size === 0) return seconds === size ? unit : plural(seconds / size, unit);
  }
  return seconds === 1 ? "second" : plural(seconds, "second");
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

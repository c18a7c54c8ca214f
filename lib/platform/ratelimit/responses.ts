import type { RateLimitDecision } from "./limiter";
import type { LimitRule } from "./policies";

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

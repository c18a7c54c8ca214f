import { rateLimitMessage, type RateLimitDecision } from "@/lib/platform/ratelimit";
import { V2Error } from "./envelope";

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

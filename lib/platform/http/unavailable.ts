import { noteDatabaseOutage } from "@/lib/platform/db/outage";
import { DATABASE_RETRY_AFTER_S } from "@/lib/platform/db/unavailable";
import { ApiError, jsonResponse } from "./api-error";

/** The answer to a payment that arrives while the server is shutting down: nothing was taken, try again shortly. */
export function unavailable(): ApiError {
  return new ApiError(
    503,
    "SHUTTING_DOWN",
    "This server is restarting and takes no new payments: nothing was charged. Try again in a few seconds.",
    {},
    { "Retry-After": "5" },
  );
}

/**
 * What every API says while its database is unreachable (lib/platform/db/unavailable.ts tells): a 503 with Retry-After, as the
 * outage is the database's and passes. Not "nothing was charged": a commit whose answer was lost may have happened
 * (a creation with an Idempotency-Key answers it on the retry).
 */
export const DATABASE_UNAVAILABLE_MESSAGE = "The shop is briefly unavailable: its database is not answering. Try again in a few seconds.";
/** The headers of every such answer; the outage is noted for the pages meanwhile (lib/platform/db/outage.ts, proxy.ts). */
export function retryAfter(): Record<string, string> {
  noteDatabaseOutage();
  return { "Retry-After": String(DATABASE_RETRY_AFTER_S) };
}

/** The x402 API's answer (its error shape) while the database is unreachable. */
export function databaseUnavailable(): ApiError {
  return new ApiError(503, "SERVICE_UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE, {}, retryAfter());
}

/** The answer of the other routes (`{error_code, message}`, as the operator's and the shop's own) while the database is unreachable. */
export function databaseUnavailableResponse(headers?: HeadersInit): Response {
  const all = new Headers(headers);
  for (const [k, v] of Object.entries(retryAfter())) all.set(k, v);
  return jsonResponse({ error_code: "service_unavailable", message: DATABASE_UNAVAILABLE_MESSAGE }, { status: 503, headers: all });
}

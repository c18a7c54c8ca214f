import { ApiError } from "./api-error";

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

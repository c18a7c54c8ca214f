/**
 * A refused webhook request, with the code a route maps to its error body: `invalid_webhook_url` and `invalid_cursor`
 * to `invalid_param` (400), `not_found` to 404.
 */
export class WebhookError extends Error {
  constructor(
    readonly code: "invalid_webhook_url" | "invalid_cursor" | "not_found",
    message: string,
  ) {
    super(message);
    this.name = "WebhookError";
  }
}

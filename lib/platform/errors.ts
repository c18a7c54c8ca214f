/**
 * The domain's refusals: what went wrong, as a code each API maps to its own status and wire code (lib/api/merchant/errors.ts
 * for the merchant API), the field it is about as a path (`["products", 0, "value"]`, which each API writes its own
 * way), and details for the answer. Domain code throws these, never an HTTP error.
 */
/** What creating an invoice can refuse (lib/checkout): the cart, its recipients, its amount, the stock it needs. */
export const INVOICE_REFUSALS = [
  "missing_identity",
  "missing_field",
  "unknown_product",
  "unknown_package",
  "package_out_of_range",
  "out_of_stock",
  "reservation_limit",
  "invalid_recipient",
  "invalid_phone_number",
  "unsupported_operator",
  "amount_too_small",
  "amount_too_large",
] as const;

export const DOMAIN_ERROR_CODES = [
  "not_found",
  "invalid_param",
  "invoice_not_payable",
  "balance_too_low",
  "idempotency_key_reused",
  "idempotency_key_in_use",
  "unknown_network",
  "invalid_address",
  "invalid_amount",
  ...INVOICE_REFUSALS,
  // Who is asking: no valid credentials (401), or known but not let in (403).
  "unauthorized",
  "forbidden",
  // Webhooks (lib/webhooks): a receiver URL that cannot be used, a cursor of the delivery log that is not one.
  "invalid_webhook_url",
  "invalid_cursor",
  // Gift card batches (lib/gift-cards): a quantity, value or currency the facility does not issue.
  "invalid_quantity",
  "invalid_value",
  "invalid_currency",
  // A gift card code that finds no card, or a card with nothing left to spend (both also count as invoice refusals).
  "unknown_gift_card",
  "gift_card_empty",
  "gift_card_unavailable",
  // The operator's stock import and hand-paid refunds: refused, the message says why.
  "stock_refused",
  "refund_refused",
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError extends Error {
  readonly path: readonly (string | number)[];
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    opts: { path?: (string | number)[]; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.path = opts.path ?? [];
    this.details = opts.details ?? {};
  }

  /** The same refusal about another field: an adapter whose request is shaped otherwise names it in its own terms. */
  at(path: (string | number)[]): DomainError {
    return new DomainError(this.code, this.message, { path, details: { ...this.details } });
  }
}

// A URL (not a file's: stack traces name those): its scheme, then up to what ends a URL in prose or in JSON text (a
// space, a double quote, the backslash of an escape). A single quote does not end it: a password may hold one.
const URL_IN_TEXT = /\b(?!file:)([a-z][a-z0-9+.-]*):\/\/[^\s"`<>\\]*/gi;

/**
 * Text with every URL cut to its scheme and host name: no credentials, port, path or query. RPC providers put their
 * keys in the path (`https://host/v2/<key>`), a DATABASE_URL its password, a webhook URL its token; error texts (viem's
 * "URL: …"), log lines and reports carry them otherwise.
 */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (url: string, scheme: string) => {
    // Credentials end at the last "@" (a password may hold "/" or "?" where it should not), the host at "/", "?" or "#".
    const rest = url.slice(scheme.length + 3);
    const host = (rest.slice(rest.lastIndexOf("@") + 1).split(/[/?#]/)[0] ?? "").replace(/:\d*$/, "");
    return `${scheme}://${host}`;
  });
}

/**
 * An error as text for an answer, a stored reason, a report or a log: its message with its URLs redacted, and
 * without the request body viem adds ("Request body: {…}": what was asked, not what went wrong).
 */
export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return redactUrls(message.replace(/^\s*Request body: .*$\n?/gm, ""));
}

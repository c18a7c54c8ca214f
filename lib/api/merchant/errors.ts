import { DomainError, type DomainErrorCode } from "@/lib/platform/errors";
import { V2Error } from "./envelope";

type V2Answer = {
  status: number;
  code: string;
  /** The message, from the refusal's own and the field it names (`products[0].value`); `field: message` by default. */
  message?: (message: string, field: string) => string;
  /** Whether the refusal's details go in the body (the amounts of a balance too low); by default they do not. */
  details?: true;
};

const invalidParameter = (message: string, field: string) => `Invalid parameter ${field}: ${message}`;

/**
 * The merchant API's answer to each domain refusal that can reach it: its HTTP status, the spec's `error_code`, and its
 * message. A refusal not listed here is a fault (500).
 */
export const V2_ERRORS: Partial<Record<DomainErrorCode, V2Answer>> = {
  not_found: { status: 404, code: "not_found" },
  invalid_param: { status: 400, code: "invalid_param", message: invalidParameter },
  invoice_not_payable: { status: 409, code: "invoice_not_payable" },
  balance_too_low: { status: 402, code: "balance_too_low", details: true },
  idempotency_key_reused: { status: 422, code: "idempotency_key_reused" },
  idempotency_key_in_use: { status: 409, code: "idempotency_key_in_use" },
  // Invoice refusals (INVOICE_REFUSALS in lib/platform/errors.ts). A merchant's invoice always has its payer and no reservation cap: the
  // first and the reservation limit would be our fault.
  missing_identity: { status: 500, code: "create_invoice_failed" },
  missing_field: { status: 400, code: "missing_param", message: (_, field) => `Missing required parameter: ${field}` },
  unknown_product: { status: 404, code: "not_found", message: (message, field) => `Product not found (${field}): ${message}` },
  unknown_package: { status: 400, code: "invalid_package_id" },
  package_out_of_range: { status: 400, code: "invalid_value" },
  out_of_stock: { status: 409, code: "out_of_stock" },
  reservation_limit: { status: 500, code: "create_invoice_failed" },
  invalid_recipient: { status: 400, code: "invalid_param", message: invalidParameter },
  invalid_phone_number: { status: 400, code: "invalid_phone_number", message: (message, field) => `${field}: ${message} (E.164 expected)` },
  unsupported_operator: { status: 400, code: "unsupported_operator" },
  amount_too_small: { status: 400, code: "invalid_value" },
  // Only a USDC invoice has an upper bound (one x402 payment); the value of each item was in range.
  amount_too_large: { status: 400, code: "unsupported_payment_method" },
  unauthorized: { status: 401, code: "unauthorized" },
  forbidden: { status: 403, code: "forbidden" },
  invalid_webhook_url: { status: 400, code: "invalid_param" },
  invalid_cursor: { status: 400, code: "invalid_param" },
  invalid_quantity: { status: 400, code: "invalid_quantity" },
  invalid_value: { status: 400, code: "invalid_value" },
  invalid_currency: { status: 400, code: "invalid_currency" },
  unknown_gift_card: { status: 400, code: "invalid_param", message: invalidParameter },
  gift_card_empty: { status: 400, code: "invalid_param", message: invalidParameter },
  gift_card_unavailable: { status: 400, code: "invalid_param", message: invalidParameter },
};

/** The merchant API's error for a domain refusal, or undefined when it is not one the table knows (a fault). */
export function v2ErrorOf(err: DomainError): V2Error | undefined {
  const answer = V2_ERRORS[err.code];
  if (!answer) return undefined;
  const field = err.path.length > 0 ? v2Path(err.path) : undefined;
  const message = field === undefined ? err.message : (answer.message ?? ((m, f) => `${f}: ${m}`))(err.message, field);
  if (answer.status >= 500) return new V2Error(answer.status, answer.code, "The invoice could not be created.");
  return new V2Error(answer.status, answer.code, message, answer.details ? { ...err.details } : {});
}

/** A field as the merchant API names it: `products[0].value`. */
export function v2Path(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

type Status = 400 | 402 | 404 | 409 | 422 | 500;

/** The error codes, by status, that these domain refusals answer on the merchant API: its OpenAPI document's lists. */
export function v2ErrorCodes(refusals: readonly DomainErrorCode[]): Partial<Record<Status, readonly [string, ...string[]]>> {
  const byStatus: Partial<Record<Status, [string, ...string[]]>> = {};
  for (const refusal of refusals) {
    const answer = V2_ERRORS[refusal];
    if (!answer) throw new Error(`The merchant API has no answer for the refusal ${refusal}`);
    const { status, code } = answer;
    const list = byStatus[status as Status];
    if (!list) byStatus[status as Status] = [code];
    else if (!list.includes(code)) list.push(code);
  }
  return byStatus;
}

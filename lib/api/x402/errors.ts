import { DomainError, type DomainErrorCode } from "@/lib/platform/errors";
import { ApiError } from "@/lib/platform/http/api-error";

/**
 * The wallet-paid API's answer to each domain refusal that can reach it (and the devnet helpers, which answer the
 * same way): its HTTP status and its `code`. A refusal not listed here is a fault (500).
 */
export const X402_ERRORS: Partial<Record<DomainErrorCode, { status: number; code: string }>> = {
  not_found: { status: 404, code: "NOT_FOUND" },
  invalid_param: { status: 400, code: "INVALID_PARAMETER" },
  invoice_not_payable: { status: 409, code: "INVOICE_NOT_PAYABLE" },
  unknown_network: { status: 400, code: "UNKNOWN_NETWORK" },
  invalid_address: { status: 400, code: "INVALID_ADDRESS" },
  invalid_amount: { status: 400, code: "INVALID_AMOUNT" },
  // Invoice refusals (INVOICE_REFUSALS in lib/platform/errors.ts): the details say more (`reason`, the `packages` offered, a `range`).
  missing_identity: { status: 400, code: "MISSING_IDENTITY" },
  missing_field: { status: 400, code: "MISSING_FIELD" },
  unknown_product: { status: 400, code: "UNKNOWN_PRODUCT" },
  unknown_package: { status: 400, code: "UNKNOWN_PACKAGE" },
  package_out_of_range: { status: 400, code: "UNKNOWN_PACKAGE" },
  out_of_stock: { status: 400, code: "OUT_OF_STOCK" },
  reservation_limit: { status: 400, code: "RESERVATION_LIMIT" },
  invalid_recipient: { status: 400, code: "INVALID_RECIPIENT" },
  invalid_phone_number: { status: 400, code: "INVALID_RECIPIENT" },
  unsupported_operator: { status: 400, code: "INVALID_RECIPIENT" },
  amount_too_small: { status: 400, code: "AMOUNT_TOO_SMALL" },
  amount_too_large: { status: 400, code: "AMOUNT_TOO_LARGE" },
  unknown_gift_card: { status: 400, code: "INVALID_GIFT_CARD" },
  gift_card_empty: { status: 400, code: "GIFT_CARD_EMPTY" },
  gift_card_unavailable: { status: 400, code: "GIFT_CARD_UNAVAILABLE" },
};

/** A field as the wallet-paid API names it: `items.0.package_value`. */
export const x402Path = (path: readonly (string | number)[]) => path.map(String).join(".");

/** The wallet-paid API's error for a domain refusal: the field, when there is one, leads the message and is in `field`. */
export function x402ErrorOf(err: DomainError): ApiError | undefined {
  const answer = X402_ERRORS[err.code];
  if (!answer) return undefined;
  const field = err.path.length > 0 ? x402Path(err.path) : undefined;
  return new ApiError(answer.status, answer.code, field ? `${field}: ${err.message}` : err.message, { ...(field ? { field } : {}), ...err.details });
}

/** The codes these domain refusals answer on the wallet-paid API, once each: its OpenAPI document's lists. */
export function x402ErrorCodes(refusals: readonly DomainErrorCode[]): string[] {
  return [...new Set(refusals.flatMap((r) => X402_ERRORS[r]?.code ?? []))];
}

import { DomainError, type DomainErrorCode } from "@/lib/errors";
import { V2Error } from "./envelope";

/** The merchant API's answer to each domain refusal: its HTTP status and the spec's `error_code`. */
export const V2_ERRORS: Record<DomainErrorCode, { status: number; code: string }> = {
  not_found: { status: 404, code: "not_found" },
  invalid_param: { status: 400, code: "invalid_param" },
  invoice_not_payable: { status: 409, code: "invoice_not_payable" },
  balance_too_low: { status: 402, code: "balance_too_low" },
  idempotency_key_reused: { status: 422, code: "idempotency_key_reused" },
  idempotency_key_in_use: { status: 409, code: "idempotency_key_in_use" },
  // The devnet faucet's refusals never reach the merchant API; as it would say them:
  unknown_network: { status: 400, code: "invalid_param" },
  invalid_address: { status: 400, code: "invalid_param" },
  invalid_amount: { status: 400, code: "invalid_value" },
};

/** The merchant API's error for a domain refusal, with the refusal's details in the body. */
export function v2ErrorOf(err: DomainError): V2Error {
  const { status, code } = V2_ERRORS[err.code];
  const message = err.path.length > 0 ? `Invalid parameter ${v2Path(err.path)}: ${err.message}` : err.message;
  return new V2Error(status, code, message, { ...err.details });
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
    const { status, code } = V2_ERRORS[refusal];
    const list = byStatus[status as Status];
    if (!list) byStatus[status as Status] = [code];
    else if (!list.includes(code)) list.push(code);
  }
  return byStatus;
}

import type { DomainError, DomainErrorCode } from "@/lib/platform/errors";
import { REFUND_REFUSED, STOCK_REFUSED } from "./wire";

/**
 * The operator API's answer to each domain refusal that can reach it: its HTTP status and `error_code`, the message
 * the domain's. A refusal not listed here is a fault (500).
 */
export const ADMIN_ERRORS: Partial<Record<DomainErrorCode, { status: number; code: string }>> = {
  stock_refused: { status: 400, code: STOCK_REFUSED },
  refund_refused: { status: 400, code: REFUND_REFUSED },
  invalid_param: { status: 400, code: "invalid_param" },
  not_found: { status: 404, code: "not_found" },
};

/** The operator API's answer to a domain refusal, or undefined when it is not one the table knows. */
export function adminErrorOf(err: DomainError): { status: number; code: string; message: string } | undefined {
  const answer = ADMIN_ERRORS[err.code];
  return answer && { ...answer, message: err.message };
}

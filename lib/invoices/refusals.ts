import type { DomainErrorCode } from "@/lib/errors";

/** What creating an invoice can refuse (as DomainErrors), for the API documents that list each API's answers. */
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
] as const satisfies readonly DomainErrorCode[];

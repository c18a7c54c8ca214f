/** The codes of invoice refusals: both APIs answer them (the /x402 one as they are), and its document lists them. */
export const INVOICE_REFUSAL_CODES = [
  "MISSING_IDENTITY",
  "MISSING_FIELD",
  "UNKNOWN_PRODUCT",
  "UNKNOWN_PACKAGE",
  "OUT_OF_STOCK",
  "RESERVATION_LIMIT",
  "INVALID_RECIPIENT",
  "AMOUNT_TOO_SMALL",
  "AMOUNT_TOO_LARGE",
] as const;
export type InvoiceRefusalCode = (typeof INVOICE_REFUSAL_CODES)[number];

/** A refusal of invoice creation or payment, with the code clients branch on and details for people. */
export class InvoiceError extends Error {
  constructor(
    readonly code: InvoiceRefusalCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "InvoiceError";
  }
}

/** A refusal of invoice creation or payment, with the code clients branch on and details for people. */
export class InvoiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "InvoiceError";
  }
}

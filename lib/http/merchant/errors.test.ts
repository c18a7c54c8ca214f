import { describe, expect, it } from "vitest";
import { DOMAIN_ERROR_CODES, DomainError } from "@/lib/errors";
import { V2_ERRORS, v2ErrorCodes, v2ErrorOf } from "./errors";

describe("the merchant API's table of domain refusals", () => {
  it("answers each refusal with its status, its code and the refusal's details in the envelope", async () => {
    const err = v2ErrorOf(new DomainError("balance_too_low", "Balance too low", { details: { required: 1000, available: 10, currency: "USD" } }));
    const res = err.toResponse("/invoices/inv_1/pay");
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      meta: { _endpoint: "/invoices/inv_1/pay" },
      error_code: "balance_too_low",
      message: "Balance too low",
      required: 1000,
      available: 10,
      currency: "USD",
    });
  });

  it("has an answer for every domain refusal, and lists them by status for the OpenAPI document", () => {
    expect(Object.keys(V2_ERRORS).sort()).toEqual([...DOMAIN_ERROR_CODES].sort());
    expect(v2ErrorCodes(["not_found", "invoice_not_payable", "balance_too_low", "idempotency_key_in_use"])).toEqual({
      402: ["balance_too_low"],
      404: ["not_found"],
      409: ["invoice_not_payable", "idempotency_key_in_use"],
    });
  });

  it("names a refused field as the merchant API writes fields", async () => {
    const res = v2ErrorOf(new DomainError("invalid_param", "must be a positive integer", { path: ["products", 0, "quantity"] })).toResponse("/invoices");
    expect(await res.json()).toMatchObject({ error_code: "invalid_param", message: "Invalid parameter products[0].quantity: must be a positive integer" });
  });
});

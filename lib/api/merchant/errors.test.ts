import { describe, expect, it } from "vitest";
import { DOMAIN_ERROR_CODES, DomainError } from "@/lib/platform/errors";
import { inRequestTerms } from "@/lib/checkout/merchant-api/create";
import { V2_ERRORS, v2ErrorCodes, v2ErrorOf } from "./errors";

describe("the merchant API's table of domain refusals", () => {
  it("answers each refusal with its status, its code and the refusal's details in the envelope", async () => {
    const err = v2ErrorOf(new DomainError("balance_too_low", "Balance too low", { details: { required: 1000, available: 10, currency: "USD" } }))!;
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

  it("answers the refusals that can reach it, a fault for the others, and lists them by status for the OpenAPI document", () => {
    // The devnet faucet's and the operator's refusals never come through the merchant API.
    const elsewhere = ["unknown_network", "invalid_address", "invalid_amount", "stock_refused", "refund_refused"];
    expect(Object.keys(V2_ERRORS).sort()).toEqual(DOMAIN_ERROR_CODES.filter((c) => !elsewhere.includes(c)).sort());
    expect(v2ErrorOf(new DomainError("stock_refused", "no"))).toBeUndefined();
    expect(v2ErrorCodes(["not_found", "invoice_not_payable", "balance_too_low", "idempotency_key_in_use"])).toEqual({
      402: ["balance_too_low"],
      404: ["not_found"],
      409: ["invoice_not_payable", "idempotency_key_in_use"],
    });
  });

  it("names a refused field as the merchant API writes fields", async () => {
    const res = v2ErrorOf(new DomainError("invalid_param", "must be a positive integer", { path: ["products", 0, "quantity"] }))!.toResponse("/invoices");
    expect(await res.json()).toMatchObject({ error_code: "invalid_param", message: "Invalid parameter products[0].quantity: must be a positive integer" });
  });
});

describe("an invoice refusal on the merchant API", () => {
  it("names the request's own field and answers the spec's code, whichever way the shared code refused it", async () => {
    const items = [
      { product_id: "a", package_value: "10", source: { index: 0, value: "value" as const, recipient: undefined } },
      { product_id: "b", package_value: "+1", refill_input: "+1", source: { index: 1, value: "package_id" as const, recipient: "phone_number" as const } },
    ];
    const answer = async (err: DomainError) => {
      const res = v2ErrorOf(inRequestTerms(err, items))!.toResponse("/invoices");
      return [res.status, await res.json()];
    };
    expect(await answer(new DomainError("unsupported_operator", "MTN serves numbers starting with +234803", { path: ["items", 1, "refill_input"] }))).toEqual([
      400,
      { meta: { _endpoint: "/invoices" }, error_code: "unsupported_operator", message: "products[1].phone_number: MTN serves numbers starting with +234803" },
    ]);
    expect(await answer(new DomainError("package_out_of_range", '"13" is not a package of a', { path: ["items", 0, "package_value"] }))).toMatchObject([
      400,
      { error_code: "invalid_value", message: 'products[0].value: "13" is not a package of a' },
    ]);
    expect(await answer(new DomainError("unknown_package", '"x" is not a package of b', { path: ["items", 1, "package_value"] }))).toMatchObject([
      400,
      { error_code: "invalid_package_id", message: 'products[1].package_id: "x" is not a package of b' },
    ]);
    expect(
      await answer(new DomainError("missing_field", "required", { path: ["items", 0, "refill_input"], details: { reason: "missing", recipient: "email" } })),
    ).toEqual([400, { meta: { _endpoint: "/invoices" }, error_code: "missing_param", message: "Missing required parameter: products[0].email" }]);
    // Our own fault, not the merchant's: no detail of it goes out.
    expect(await answer(new DomainError("reservation_limit", "wallets only", { details: { limit: 10 } }))).toEqual([
      500,
      { meta: { _endpoint: "/invoices" }, error_code: "create_invoice_failed", message: "The invoice could not be created." },
    ]);
  });
});

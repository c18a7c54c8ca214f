import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { invalidQuery } from "@/lib/platform/http/api-error";
import { readQuery } from "@/lib/api/merchant/products";
import { listDeliveriesQuery, listGiftCardBatchesQuery, listInvoicesQuery, listOrdersQuery, listQuery, searchQuery } from "@/lib/api/merchant/schemas";
import { queryRefusal } from "./query";
import { myOrdersQuery, x402SearchQuery } from "@/lib/api/x402/x402-query";

const refusal = (schema: z.ZodObject, query: Record<string, string>) => {
  const parsed = schema.safeParse(query);
  if (parsed.success) return undefined;
  return queryRefusal(schema, parsed.error.issues);
};

/** What the merchant API's reader answers for a query string (its V2Error as the client gets it). */
function merchantRefusal(schema: z.ZodObject, query: string) {
  try {
    readQuery(new URL(`http://shop.test/api/v2/x?${query}`), schema);
  } catch (err) {
    return { status: (err as { status: number }).status, code: (err as { code: string }).code, message: (err as Error).message };
  }
  return undefined;
}

describe("query-string refusals", () => {
  it("name the parameter and its whole rule on /x402, whatever a number parameter got wrong", () => {
    const search = (query: Record<string, string>) => {
      const parsed = x402SearchQuery.safeParse(query);
      return parsed.success ? undefined : invalidQuery(x402SearchQuery, parsed.error.issues);
    };
    for (const bad of ["abc", "1.5", "0", "-1", "51", "1e9", "NaN", "Infinity"]) {
      const err = search({ limit: bad });
      expect(err, bad).toMatchObject({
        status: 400,
        code: "INVALID_PARAMETER",
        message: "limit: must be a whole number from 1 to 50",
        details: { field: "limit" },
      });
    }
    expect(search({ page: "abc" })?.message).toBe("page: must be a whole number from 1 to 10000");
    expect(search({ page: "1e9" })?.message).toBe("page: must be a whole number from 1 to 10000");
    expect(search({ limit: "50", page: "3" })).toBeUndefined();
    // The spec's my/orders rules: limit 1 to 100, start at least 0.
    expect(refusal(myOrdersQuery, { limit: "abc" })).toEqual({ param: "limit", rule: "must be a whole number from 1 to 100" });
    expect(refusal(myOrdersQuery, { start: "abc" })).toEqual({ param: "start", rule: "must be a whole number, 0 or more" });
    expect(refusal(myOrdersQuery, { start: "-1" })).toEqual({ param: "start", rule: "must be a whole number, 0 or more" });
    // The schemas' own words stay where they say the rule.
    expect(search({ country: "Germany" })?.message).toBe("country: must be an ISO 3166-1 alpha-2 country code such as US");
  });

  it("name the parameter and its whole rule on /api/v2, in the invalid_param envelope", () => {
    expect(merchantRefusal(listQuery, "limit=abc")).toEqual({
      status: 400,
      code: "invalid_param",
      message: "Invalid parameter limit: must be a whole number from 1 to 50",
    });
    expect(merchantRefusal(listOrdersQuery, "start=abc")?.message).toBe("Invalid parameter start: must be a whole number from 0 to 1000000");
    expect(merchantRefusal(listOrdersQuery, "start=1e9")?.message).toBe("Invalid parameter start: must be a whole number from 0 to 1000000");
    expect(merchantRefusal(listDeliveriesQuery, "limit=1.5")?.message).toBe("Invalid parameter limit: must be a whole number from 1 to 100");
    expect(merchantRefusal(listQuery, "include_test_products=maybe")?.message).toBe(
      "Invalid parameter include_test_products: must be one of 0, 1, true, false",
    );
    expect(merchantRefusal(listQuery, "category=%20")?.message).toBe("Invalid parameter category: must be 1 to 50 characters");
    expect(merchantRefusal(listQuery, "type=car")?.message).toBe("Invalid parameter type: must be gift_card, phone_refill or esim");
    expect(merchantRefusal(listQuery, "limit=20&start=40")).toBeUndefined();
  });

  it("never answer zod's own text for any parameter of either API's query strings", () => {
    const schemas = {
      x402SearchQuery,
      myOrdersQuery,
      listQuery,
      searchQuery,
      listInvoicesQuery,
      listOrdersQuery,
      listDeliveriesQuery,
      listGiftCardBatchesQuery,
    };
    const bad = ["abc", "1.5", "-1", "0", "1e12", "NaN", "Infinity", " ", "x".repeat(300), "\u00e9\u00e9", "inv_nope", "true"];
    let refused = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const param of Object.keys(schema.shape)) {
        for (const value of bad) {
          // searchQuery's q is required: the other parameters are tried beside a valid one.
          const r = refusal(schema, { ...(name === "searchQuery" && param !== "q" ? { q: "steam" } : {}), [param]: value });
          if (!r) continue;
          refused++;
          expect(r.param, `${name} ${param}=${value}`).toBe(param);
          expect(r.rule, `${name} ${param}=${value}`).toMatch(/^(must|is) /);
          expect(r.rule, `${name} ${param}=${value}`).not.toMatch(/expected|received|NaN|Invalid|Too (big|small)/);
        }
      }
    }
    expect(refused).toBeGreaterThan(60);
  });
});

import { describe, expect, it } from "vitest";
import {
  DASHBOARD_SIGN_IN_LIMITS,
  EXTRA_MERCHANT_ROUTES,
  MERCHANT_LIMITS,
  PRODUCT_QUOTA,
  X402_LIMITS,
  merchantPolicyName,
  type MerchantRouteId,
} from "./policies";

// The "Limits" table of specs/merchant-api.md, as written there.
const SPEC_TABLE = `
| GET /ping | 1 request | 3 seconds |
| GET /check_phone_number | 10 requests | 1 minute |
| GET /accounts/balance | 60 requests | 10 minutes |
| GET /products | 60 requests | 1 minute |
| GET /products/{id} | 60 requests | 1 minute |
| GET /products/esims | 60 requests | 1 minute |
| GET /products/esims/{id} | 60 requests | 1 minute |
| GET /products/search | 60 requests | 1 minute |
| GET /invoices | 20 requests | 1 minute |
| GET /invoices/{id} | 60 requests | 10 minutes |
| POST /invoices | 60 requests | 10 minutes |
| POST /invoices/{id}/pay | 60 requests | 10 minutes |
| GET /esims/invoice/{id} | 60 requests | 10 minutes |
| POST /esims | 60 requests | 10 minutes |
| POST /esims/invoice/{id}/pay | 60 requests | 10 minutes |
| GET /orders | 20 requests | 1 minute |
| GET /orders/{id} | 60 requests | 10 minutes |
| GET /esims | 20 requests | 1 minute |
| GET /esims/{id} | 60 requests | 10 minutes |
`;

const UNIT_SECONDS: Record<string, number> = { second: 1, seconds: 1, minute: 60, minutes: 60, hour: 3600 };

function parseSpecTable(table: string) {
  return table
    .trim()
    .split("\n")
    .map((line) => {
      const m = /^\| (\S+ \S+) \| (\d+) requests? \| (\d+) (\w+) \|$/.exec(line);
      const unit = UNIT_SECONDS[m?.[4] ?? ""];
      if (!m?.[1] || !m[2] || !m[3] || !unit) throw new Error(`Unreadable row: ${line}`);
      return [m[1], { points: Number(m[2]), durationSec: Number(m[3]) * unit }] as const;
    });
}

describe("rate-limit policies", () => {
  it("has every row of the spec's table, with its limit and window, and beyond it only our own documented routes", () => {
    const ours = Object.fromEntries(Object.entries(MERCHANT_LIMITS).filter(([route]) => !(EXTRA_MERCHANT_ROUTES as readonly string[]).includes(route)));
    expect(ours).toEqual(Object.fromEntries(parseSpecTable(SPEC_TABLE)));
    for (const route of EXTRA_MERCHANT_ROUTES) expect(MERCHANT_LIMITS).toHaveProperty([route]);
  });

  it("counts the product quota, 1000 an hour, over the product list and search", () => {
    expect(PRODUCT_QUOTA).toMatchObject({ points: 1000, durationSec: 3600 });
    expect(PRODUCT_QUOTA.routes).toEqual(["GET /products", "GET /products/search"]);
    for (const route of PRODUCT_QUOTA.routes) expect(MERCHANT_LIMITS).toHaveProperty([route]);
  });

  it("gives the /x402 API a generous budget per IP and a smaller one per wallet", () => {
    expect(X402_LIMITS.ip).toEqual({ name: "x402-ip", points: 600, durationSec: 60 });
    expect(X402_LIMITS.wallet).toEqual({ name: "x402-wallet", points: 300, durationSec: 60 });
  });

  it("allows 10 failed dashboard sign-ins per 15 minutes, per client IP and per credential id", () => {
    expect(DASHBOARD_SIGN_IN_LIMITS.ip).toMatchObject({ points: 10, durationSec: 900 });
    expect(DASHBOARD_SIGN_IN_LIMITS.credential).toMatchObject({ points: 10, durationSec: 900 });
  });

  it("names each policy uniquely, as a plain token", () => {
    const names = [
      ...(Object.keys(MERCHANT_LIMITS) as MerchantRouteId[]).map(merchantPolicyName),
      PRODUCT_QUOTA.name,
      X402_LIMITS.ip.name,
      X402_LIMITS.wallet.name,
      DASHBOARD_SIGN_IN_LIMITS.ip.name,
      DASHBOARD_SIGN_IN_LIMITS.credential.name,
    ];
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(merchantPolicyName("GET /ping")).toBe("get-ping");
    expect(merchantPolicyName("POST /esims/invoice/{id}/pay")).toBe("post-esims-invoice-id-pay");
    expect(merchantPolicyName("GET /check_phone_number")).toBe("get-check-phone-number");
  });
});

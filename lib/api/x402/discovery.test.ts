import { validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import { describe, expect, it } from "vitest";
import { createInvoiceBody } from "@/lib/checkout";
import { discoveryExtensions, exampleOf, llmsTxt, PAID_ROUTES, wellKnownX402 } from "./discovery";
import { invoicePayBody, invoiceStatusQuery, productDetailQuery, x402SearchQuery } from "@/lib/api/x402/x402-query";
import { X402_ROUTES, type X402RouteId } from "@/lib/api/x402/x402-routes";

type Bazaar = DiscoveryExtension & {
  info: { input: { type: string; method: string; queryParams?: Record<string, unknown>; body?: unknown; bodyType?: string }; output?: { example?: unknown } };
  schema: { properties: { input: { properties: { queryParams?: unknown; body?: unknown } } } };
};
const bazaar = (id: (typeof PAID_ROUTES)[number]) => discoveryExtensions(id).bazaar as Bazaar;

describe("Bazaar discovery of the paid /x402 routes", () => {
  it("covers every route that asks for a payment", () => {
    const paid = (Object.keys(X402_ROUTES) as X402RouteId[]).filter((id) => X402_ROUTES[id].fee !== null || id === "invoicePay");
    expect([...PAID_ROUTES].sort()).toEqual(paid.sort());
  });

  for (const id of PAID_ROUTES) {
    it(`${id}: a valid declaration with the route's method, input schema and an example answer`, () => {
      const b = bazaar(id);
      expect(validateDiscoveryExtension(b)).toEqual({ valid: true });
      expect(b.info.input).toMatchObject({ type: "http", method: X402_ROUTES[id].method });
      if (X402_ROUTES[id].method === "POST") {
        expect(b.info.input.bodyType).toBe("json");
        expect(b.schema.properties.input.properties.body).toMatchObject({ type: "object", properties: expect.any(Object) });
      } else if (id !== "checkoutInfo") {
        expect(b.schema.properties.input.properties.queryParams).toMatchObject({ type: "object", properties: expect.any(Object) });
      }
      expect(b.info.output?.example).toEqual(expect.any(Object));
      // What goes into PAYMENT-REQUIRED (and back in the payer's PAYMENT-SIGNATURE) stays small: base64 under 4 KB.
      expect(Buffer.from(JSON.stringify(b)).toString("base64").length).toBeLessThan(4096);
    });
  }

  it("gives examples the routes accept, in their own schemas", () => {
    const input = (id: (typeof PAID_ROUTES)[number]) => bazaar(id).info.input;
    for (const id of ["giftCardSearch", "esimSearch", "topupSearch"] as const) expect(x402SearchQuery.safeParse(input(id).queryParams).success).toBe(true);
    expect(productDetailQuery.safeParse(input("productDetail").queryParams).success).toBe(true);
    expect(invoiceStatusQuery.safeParse(input("invoiceStatus").queryParams).success).toBe(true);
    expect(createInvoiceBody.safeParse(input("invoiceCreate").body).success).toBe(true);
    expect(invoicePayBody.safeParse(input("invoicePay").body).success).toBe(true);
  });

  it("shows an answer by its top-level fields, with the schema's own examples", () => {
    const example = bazaar("invoiceCreate").info.output?.example as Record<string, unknown>;
    expect(example.invoice_id).toMatch(/^inv_/);
    expect(Object.keys(example)).toEqual(expect.arrayContaining(["invoice_id", "price_usdc", "expires_at", "next_step"]));
    expect(exampleOf({ type: "object", properties: { a: { type: "string", example: "x" }, b: { anyOf: [{ type: "null" }, { type: "integer" }] } } })).toEqual({
      a: "x",
      b: 0,
    });
  });
});

describe("/.well-known/x402 and /llms.txt", () => {
  it("lists every paid resource in one form, an absolute URL on the origin (GET ones with a query a probe gets a 402 from)", () => {
    const doc = wellKnownX402("https://shop.example");
    expect(doc.version).toBe(1);
    expect(doc.resources).toHaveLength(PAID_ROUTES.length);
    for (const entry of doc.resources) expect(new URL(entry).origin, entry).toBe("https://shop.example");
    expect(doc.resources).toContain("https://shop.example/x402/gift-cards/search?q=steam&country=US");
    expect(doc.resources).toContain("https://shop.example/x402/checkout/info");
    expect(doc.resources).toContain("https://shop.example/x402/invoice/create");
    expect(doc.resources).toContain("https://shop.example/x402/invoice/pay");
    expect(doc.instructions).toContain("/x402/invoice/create and /x402/invoice/pay take POST with a JSON body, the others GET");
    expect(doc.instructions).toContain("https://shop.example/llms.txt");
  });

  it("tells an agent in one page what the shop sells and how to buy, from the route table", () => {
    const text = llmsTxt("https://shop.example", [{ name: "Base" }, { name: "Solana" }]);
    expect(text.split("\n")[0]).toBe("# x402 Storefront");
    expect(text).toMatch(/^> .*USDC with x402 on Base, Solana\./m);
    for (const r of Object.values(X402_ROUTES)) expect(text).toContain(`- [${r.method} ${r.path}](https://shop.example${r.path}): ${r.description}`);
    expect(text).toContain("(fee 0.002 USDC; query: q, country)");
    expect(text).toContain("## Optional");
    expect(text).not.toContain("## MCP");
    // Counts come from the catalog as it is (catalogFacts), never from the text.
    expect(text).not.toMatch(/\d+\+? (products|brands)/);
    expect(llmsTxt("https://shop.example", [{ name: "Base" }], [], { products: 791, brands: 187 })).toMatch(
      /^> Gift cards, travel eSIMs and mobile top-ups \(791 products of 187 brands\), paid in USDC/m,
    );
    expect(llmsTxt("https://shop.example", [], ["search_products", "pay_invoice"])).toMatch(
      /^- \[MCP server\]\(https:\/\/shop\.example\/mcp\): .*Tools: search_products, pay_invoice\./m,
    );
  });
});

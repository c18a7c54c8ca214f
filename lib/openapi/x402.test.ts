import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { usdcToDecimal } from "@/lib/platform/money";
import { luhnCheckDigit } from "@/lib/catalog/iccid";
import { checkDetailQuery } from "@/lib/agents/x402/product";
import { errorResponse } from "@/lib/api/x402/with-x402-fee";
import { X402_ROUTES, type X402RouteId } from "@/lib/api/x402/x402-routes";
import { requireInvoiceId } from "@/lib/checkout/x402/status";
import { createInvoiceBody } from "@/lib/api/x402/cart";
import { answerProblems, documentProblems, routeHandlers } from "@/test/openapi";
import { invoiceStatusQuery, productDetailQuery } from "@/lib/api/x402/x402-query";
import { bodyCodes, x402OpenApiDocument, x402Operations, x402Response } from "./x402";
import * as schemas from "@/lib/api/x402/x402-schemas";

const ORIGIN = "http://shop.test";
const doc = x402OpenApiDocument(ORIGIN);

/** Fails unless `res` is the answer the document gives for `method pathTemplate` with its status: body and headers. */
async function expectDocumented(method: string, pathTemplate: string, res: Response): Promise<unknown> {
  const body: unknown = await res.json();
  expect(answerProblems(x402Response(method, pathTemplate, res.status), body, res.headers), `${method} ${pathTemplate} ${res.status}`).toEqual([]);
  return body;
}

describe("the /x402 OpenAPI document", () => {
  it("is a sound OpenAPI 3.1 document served from the origin", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: ORIGIN }]);
    expect(documentProblems(doc)).toEqual([]);
  });

  it("passes the OpenAPI 3.1 schema", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
  });

  it("documents every route file under app/x402, and nothing else", () => {
    const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
    const files = routeHandlers(path.join(process.cwd(), "app/x402"), "/x402").map(key).sort();
    expect(files.length).toBeGreaterThan(10);
    expect(x402Operations().map(key).sort()).toEqual(files);
  });

  it("lists on every route what each refuses before anything else: a broken query (400 INVALID_PARAMETER), a body declared too large (413)", () => {
    for (const { method, path } of Object.values(X402_ROUTES)) {
      expect(bodyCodes(x402Response(method, path, 400)?.body), `${method} ${path} 400`).toContain("INVALID_PARAMETER");
      expect(bodyCodes(x402Response(method, path, 413)?.body), `${method} ${path} 413`).toEqual(["PAYLOAD_TOO_LARGE"]);
    }
  });

  it("gives each paid route its fee from the route table", () => {
    for (const [id, route] of Object.entries(X402_ROUTES) as [X402RouteId, (typeof X402_ROUTES)[X402RouteId]][]) {
      const op = doc.paths?.[route.path]?.[route.method === "GET" ? "get" : "post"];
      expect(op?.operationId).toBe(id);
      const fee = op?.["x-x402-fee"] as { type: string; amount?: string };
      if (route.fee === null) {
        expect(fee.type, id).not.toBe("fixed");
      } else {
        expect(fee, id).toMatchObject({ type: "fixed", amount: route.fee.toString() });
        expect(op?.description, id).toContain(`Fee: ${usdcToDecimal(route.fee)} USDC`);
        expect(Object.keys(op?.responses ?? {}), id).toContain("402");
      }
    }
    expect(doc.paths?.["/x402/invoice/pay"]?.post?.["x-x402-fee"]).toMatchObject({ type: "invoice_price", min_amount: "10000", max_amount: "1000000000" });
  });

  it("documents the x402 headers: payment, sign-in and session token schemes, PAYMENT-REQUIRED on each 402", () => {
    expect(doc.components?.securitySchemes).toMatchObject({
      x402Payment: { type: "apiKey", in: "header", name: "PAYMENT-SIGNATURE" },
      x402PaymentV1: { type: "apiKey", in: "header", name: "X-PAYMENT" },
      siwx: { type: "apiKey", in: "header", name: "SIGN-IN-WITH-X" },
      accessToken: { type: "apiKey", in: "header", name: "X-Access-Token" },
    });
    for (const { method, path: p } of x402Operations()) {
      const answers = [200, 402, 429].map((status) => x402Response(method, p, status));
      expect(answers[0], `${method} ${p} 200`).toBeDefined();
      if (p === "/x402/openapi.json") continue;
      expect(answers[1]?.headers?.shape, `${method} ${p} 402`).toHaveProperty("PAYMENT-REQUIRED");
      expect(answers[2]?.headers?.shape, `${method} ${p} 429`).toHaveProperty("Retry-After");
    }
  });

  it("has examples that its own schemas accept", () => {
    const withExamples = ([...Object.values(schemas), createInvoiceBody] as unknown[]).filter(
      (v): v is z.ZodType => v instanceof z.ZodType && v.meta()?.example !== undefined,
    );
    expect(withExamples.length).toBeGreaterThan(5);
    for (const schema of withExamples) expect(schema.safeParse(schema.meta()?.example).error?.issues, String(schema.meta()?.id)).toBeUndefined();
  });

  it("says what the hand-written query checks of products/detail and invoice/status accept", () => {
    const iccid = "894450010219830482";
    const samples = [
      "slug=steam-us",
      "",
      "slug=",
      `slug=${"x".repeat(80)}`,
      `slug=${"x".repeat(81)}`,
      `slug=e&iccid=${iccid}${luhnCheckDigit(iccid)}`,
      `slug=e&iccid=${iccid}0`,
      "slug=e&iccid=12",
    ];
    const accepts = (check: () => unknown) => {
      try {
        check();
        return true;
      } catch {
        return false;
      }
    };
    for (const qs of samples) {
      const url = new URL(`${ORIGIN}/x402/products/detail?${qs}`);
      expect(productDetailQuery.safeParse(Object.fromEntries(url.searchParams)).success, qs).toBe(accepts(() => checkDetailQuery(url)));
    }
    for (const qs of ["invoice_id=inv_1", "", "invoice_id="]) {
      const url = new URL(`${ORIGIN}/x402/invoice/status?${qs}`);
      expect(invoiceStatusQuery.safeParse(Object.fromEntries(url.searchParams)).success, qs).toBe(accepts(() => requireInvoiceId(url)));
    }
  });

  it("is served free at GET /x402/openapi.json, cacheable and open to any origin", async () => {
    const { GET } = await import("@/app/x402/openapi.json/route");
    const res = await GET(new Request(`${ORIGIN}/x402/openapi.json`));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await expectDocumented("GET", "/x402/openapi.json", res)).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe("the /x402 routes answer as documented", () => {
  const get = (p: string) => new Request(`${ORIGIN}${p}`);
  const post = (p: string, body: string) => new Request(`${ORIGIN}${p}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });

  // Bad input is refused before any payment, so these need no chain and no database.
  it("refuses bad parameters with the documented 400 bodies", async () => {
    const search = await import("@/app/x402/topups/search/route");
    const detail = await import("@/app/x402/products/detail/route");
    const create = await import("@/app/x402/invoice/create/route");
    const pay = await import("@/app/x402/invoice/pay/route");
    const status = await import("@/app/x402/invoice/status/route");
    const orders = await import("@/app/x402/my/orders/route");
    const cases: [string, string, Promise<Response>, string][] = [
      ["GET", "/x402/topups/search", search.GET(get("/x402/topups/search?country=Germany")), "INVALID_PARAMETER"],
      ["GET", "/x402/products/detail", detail.GET(get("/x402/products/detail")), "MISSING_FIELD"],
      ["GET", "/x402/products/detail", detail.GET(get("/x402/products/detail?slug=e&iccid=12")), "INVALID_PARAMETER"],
      ["POST", "/x402/invoice/create", create.POST(post("/x402/invoice/create", "{}")), "MISSING_FIELD"],
      ["POST", "/x402/invoice/create", create.POST(post("/x402/invoice/create", "{items:")), "INVALID_JSON"],
      ["POST", "/x402/invoice/pay", pay.POST(post("/x402/invoice/pay", "{}")), "MISSING_FIELD"],
      ["GET", "/x402/invoice/status", status.GET(get("/x402/invoice/status")), "MISSING_FIELD"],
      ["GET", "/x402/my/orders", orders.GET(get("/x402/my/orders?limit=101")), "INVALID_PARAMETER"],
    ];
    for (const [method, p, answer, code] of cases) {
      const res = await answer;
      expect(res.status, p).toBe(400);
      expect(await expectDocumented(method, p, res)).toMatchObject({ code });
    }
  });

  it("answers an unexpected failure with the documented 500", async () => {
    vi.spyOn(console, "error").mockImplementationOnce(() => {});
    const res = errorResponse(new Error("boom"));
    expect(res.status).toBe(500);
    expect(await expectDocumented("GET", "/x402/checkout/info", res)).toMatchObject({ code: "INTERNAL_ERROR" });
  });

  it("fails an answer the document does not describe", () => {
    const documented = x402Response("GET", "/x402/products/detail", 404);
    expect(answerProblems(documented, { code: "PRODUCT_NOT_FOUND", message: "No product.", suggestions: [] })).toEqual([]);
    expect(answerProblems(documented, { code: "NOT_A_CODE", message: "No product." })).toHaveLength(1);
    expect(answerProblems(documented, { code: "PRODUCT_NOT_FOUND", message: "No product.", extra: 1 })).toHaveLength(1);
    expect(answerProblems(x402Response("GET", "/x402/products/detail", 418), {})).toEqual(["this answer is not documented"]);
    const required = x402Response("GET", "/x402/checkout/info", 402);
    expect(answerProblems(required, { x402Version: 2, error: "Payment required", resource: { url: ORIGIN }, accepts: [] }, new Headers())).toEqual([
      "header PAYMENT-REQUIRED: Invalid input: expected string, received undefined",
    ]);
  });
});

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { allowedMethods, EDGE_REFUSAL_PATH } from "@/lib/api/merchant/methods";
import { MERCHANT_LIMITS } from "@/lib/platform/ratelimit/policies";
import { documentProblems } from "@/test/openapi";
import { assertDocumentedV2, findV2Operation, V2_OPERATIONS, v2OpenApiDocument } from "./v2";

const API_DIR = path.join(process.cwd(), "app/api/v2");

/** Every `METHOD /path` that a route file under app/api/v2 exports, with `{id}` for a dynamic segment. */
function routesOnDisk(dir = API_DIR): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    // The catch-all answers what no route does (404, 405), and edge-refusal what the proxy refuses (400, 413): they
    // are no routes of the document.
    if (statSync(full).isDirectory()) {
      if (!name.startsWith("[[...") && path.join(dir, name) !== path.join(API_DIR, EDGE_REFUSAL_PATH)) out.push(...routesOnDisk(full));
    } else if (name === "route.ts") {
      const route = path
        .relative(API_DIR, dir)
        .split(path.sep)
        .map((seg) => (seg.startsWith("[") ? `{${seg.slice(1, -1)}}` : seg));
      const methods = [...readFileSync(full, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!);
      for (const m of methods) out.push(`${m} /${route.join("/")}`);
    }
  }
  return out;
}

describe("the merchant API's OpenAPI document", () => {
  const doc = v2OpenApiDocument("https://shop.example");

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://shop.example/api/v2" }]);
    expect(documentProblems(doc)).toEqual([]);
  });

  it("documents exactly the routes that exist (the document itself is served beside them)", () => {
    const documented = V2_OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();
    expect(
      routesOnDisk()
        .filter((r) => r !== "GET /openapi.json")
        .sort(),
    ).toEqual(documented);
  });

  it("knows the methods of every route on disk, so that the proxy sends no real request to the 405 answer", () => {
    for (const route of routesOnDisk()) {
      const [method, routePath] = route.split(" ") as [string, string];
      expect(allowedMethods(routePath.replace(/\{[^}]+\}/g, "x_1")), route).toContain(method);
    }
  });

  it("gives every operation a unique id and its rate limit", () => {
    const ids = V2_OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of V2_OPERATIONS) {
      expect(Object.keys(MERCHANT_LIMITS)).toContain(`${op.method.toUpperCase()} ${op.path}`);
      expect(doc.paths?.[op.path]?.[op.method]?.description).toMatch(/Rate limit: \d+ per \d+ s per account/);
    }
  });

  it("finds the operation of a request, a literal segment before {id}", () => {
    expect(findV2Operation("GET", "/api/v2/products/esims?limit=2")?.operationId).toBe("listEsimProducts");
    expect(findV2Operation("GET", "/api/v2/products/steam-us")?.operationId).toBe("getProduct");
    expect(findV2Operation("POST", "/invoices/inv_X/pay")?.operationId).toBe("payInvoice");
    expect(findV2Operation("DELETE", "/invoices")).toBeUndefined();
  });

  it("refuses an answer it does not describe: an unlisted status, an unlisted error code, a missing or extra field", () => {
    const balance = { meta: { _endpoint: "/accounts/balance" }, data: { balance: 100, currency: "USD" } };
    expect(() => assertDocumentedV2("GET", "/api/v2/accounts/balance", 200, balance)).not.toThrow();
    expect(() => assertDocumentedV2("GET", "/api/v2/accounts/balance", 404, { meta: { _endpoint: "/x" }, error_code: "not_found", message: "" })).toThrow(
      /does not list/,
    );
    expect(() => assertDocumentedV2("GET", "/api/v2/products/x", 404, { meta: { _endpoint: "/x" }, error_code: "gone", message: "" })).toThrow(/error_code/);
    expect(() => assertDocumentedV2("GET", "/api/v2/accounts/balance", 200, { ...balance, data: { balance: 100 } })).toThrow(/currency/);
    expect(() => assertDocumentedV2("GET", "/api/v2/accounts/balance", 200, { ...balance, data: { ...balance.data, extra: 1 } })).toThrow(/extra/);
  });
});

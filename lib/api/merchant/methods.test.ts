import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { allowedMethods, ROUTE_METHODS } from "./methods";
import { merchantFallback, merchantRefusalRoute } from "./route";

describe("allowedMethods", () => {
  it("names the methods of each merchant API path, parameters included", () => {
    expect(allowedMethods("/ping")).toEqual(["GET"]);
    expect(allowedMethods("/invoices")).toEqual(["GET", "POST"]);
    expect(allowedMethods("/invoices/inv_123")).toEqual(["GET"]);
    expect(allowedMethods("/invoices/inv_123/pay")).toEqual(["POST"]);
    expect(allowedMethods("/esims")).toEqual(["GET", "POST"]);
    expect(allowedMethods("/openapi.json")).toEqual(["GET"]);
    expect(allowedMethods("/ping/")).toEqual(["GET"]);
  });

  it("knows no method of a path that is no route", () => {
    for (const path of ["/", "/nope", "/invoices/a/b", "/products/x/y/z", "/pingx"]) expect(allowedMethods(path)).toEqual([]);
  });

  it("is what every route file under app/api/v2 takes: each exports every method, those its path does not take as the fallback's 405", async () => {
    const root = path.resolve("app/api/v2");
    const files = fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("route.ts"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const dir = path.dirname(file);
      // The catch-all answers every method with the fallback, and the edge's refusal route every method with its own.
      const endpoint = dir.startsWith("[[") || dir === "edge-refusal" ? undefined : "/" + dir.replace(/\[[^\]]+\]/g, "x");
      const mod = (await import(path.join(root, file))) as Record<string, unknown>;
      const allowed = endpoint === undefined ? [] : allowedMethods(endpoint);
      const fallback = dir === "edge-refusal" ? merchantRefusalRoute : merchantFallback;
      for (const method of ROUTE_METHODS) {
        expect(typeof mod[method], `${method} ${file}`).toBe("function");
        expect(mod[method] === fallback, `${method} ${file}`).toBe(!allowed.includes(method));
      }
    }
  });
});

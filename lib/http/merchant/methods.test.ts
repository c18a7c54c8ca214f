import { describe, expect, it } from "vitest";
import { allowedMethods, methodAllowed } from "./methods";

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

  it("lets HEAD through where GET is taken, and sends OPTIONS to the catch-all", () => {
    expect(methodAllowed("HEAD", ["GET"])).toBe(true);
    // OPTIONS goes to the catch-all, which answers it with Allow and the limit's fields.
    expect(methodAllowed("OPTIONS", ["POST"])).toBe(false);
    expect(methodAllowed("DELETE", ["GET"])).toBe(false);
    expect(methodAllowed("HEAD", ["POST"])).toBe(false);
  });
});

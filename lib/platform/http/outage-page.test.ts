import { afterEach, describe, expect, it } from "vitest";
import { noteDatabaseBack, noteDatabaseOutage } from "@/lib/platform/db/outage";
import { outagePage } from "./outage-page";

afterEach(() => noteDatabaseBack());

describe("outagePage", () => {
  it("answers pages 503 with Retry-After and a page that says the shop is briefly unavailable, while an outage was just seen", async () => {
    expect(outagePage("GET", "/products/steam")).toBeUndefined();
    noteDatabaseOutage();
    for (const path of ["/", "/products/steam", "/dashboard", "/operator"]) {
      const res = outagePage("GET", path);
      expect(res?.status, path).toBe(503);
      expect(res?.headers.get("retry-after")).toBe("5");
      expect(await res?.text()).toContain("The shop is briefly unavailable");
    }
    expect(outagePage("HEAD", "/")?.status).toBe(503);
  });

  it("leaves the APIs (their own 503s), files and form posts alone, and the pages once the database is back or the outage is old", () => {
    noteDatabaseOutage();
    for (const path of ["/api/v2/invoices", "/x402/checkout/info", "/mcp", "/img/products/steam.svg", "/llms.txt", "/_next/static/x.js"]) {
      expect(outagePage("GET", path), path).toBeUndefined();
    }
    expect(outagePage("POST", "/operator")).toBeUndefined();
    noteDatabaseBack();
    expect(outagePage("GET", "/")).toBeUndefined();
    noteDatabaseOutage(Date.now() - 6_000);
    expect(outagePage("GET", "/")).toBeUndefined();
  });
});

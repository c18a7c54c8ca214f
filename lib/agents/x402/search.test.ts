import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/platform/http/api-error";
import { parseSearchQuery } from "./search";

describe("the search routes' query", () => {
  it("takes a region beside the words and the country", () => {
    expect(parseSearchQuery(new URL("http://shop.test/x402/esims/search?q=esim&region=%20Europe%20&country=de"))).toMatchObject({
      q: "esim",
      region: "Europe",
      country: "DE",
    });
  });

  it("refuses an empty or overlong region with a 400", () => {
    for (const region of ["", "x".repeat(51)]) {
      expect(() => parseSearchQuery(new URL(`http://shop.test/x402/esims/search?region=${region}`))).toThrow(ApiError);
    }
  });
});

import { describe, expect, it } from "vitest";
import { edgeError, percentProblem, urlProblem } from "./edge-guard";

describe("the edge guard", () => {
  it("lets valid paths and queries through, percent-encoded UTF-8 included", () => {
    expect(urlProblem("/products/steam-us?q=gift%20card&x=%F0%9F%8E%81+a")).toBeUndefined();
    expect(urlProblem("/")).toBeUndefined();
    expect(urlProblem("/search?q=caf%C3%A9")).toBeUndefined();
  });

  it("refuses NUL bytes, invalid UTF-8, encoded surrogates and broken escapes, in the path and in the query", () => {
    expect(urlProblem("/products/%00")).toMatch(/path contains a NUL/);
    expect(urlProblem("/products/%ED%A0%80")).toMatch(/path is not valid UTF-8/);
    expect(urlProblem("/products/%C0%AF")).toMatch(/not valid UTF-8/);
    expect(urlProblem("/products/%FF")).toMatch(/not valid UTF-8/);
    expect(urlProblem("/products/%zz")).toMatch(/% that does not start an escape/);
    expect(urlProblem("/products/100%")).toMatch(/% that does not start an escape/);
    expect(urlProblem("/x402/my/orders?start=%00")).toMatch(/query string contains a NUL/);
    expect(urlProblem("/x?%ED%A0%80=1")).toMatch(/query string is not valid UTF-8/);
    expect(percentProblem("caf\u00e9")).toMatch(/not percent-encoded/);
  });

  it("answers in the shape of the API the request was for", async () => {
    const v2 = edgeError("/api/v2/products/x", 400, "The path contains a NUL byte.");
    expect(v2.status).toBe(400);
    expect(await v2.json()).toEqual({ meta: { _endpoint: "/products/x" }, error_code: "invalid_param", message: "The path contains a NUL byte." });
    expect(await edgeError("/api/v2/invoices", 413, "too big").json()).toMatchObject({ error_code: "payload_too_large" });
    expect(await edgeError("/x402/invoice/create", 400, "bad").json()).toEqual({ code: "INVALID_PARAMETER", message: "bad" });
    expect(await edgeError("/api/admin/merchants", 413, "big").json()).toEqual({ error_code: "payload_too_large", message: "big" });
    const page = edgeError("/products/%ED%A0%80", 400, "The path is not valid UTF-8.");
    expect(page.headers.get("content-type")).toMatch(/text\/plain/);
    expect(await page.text()).toBe("Bad Request: The path is not valid UTF-8.\n");
    // A broken path is not echoed back.
    expect(await edgeError("/api/v2/products/%ED%A0%80", 400, "x").json()).toMatchObject({ meta: { _endpoint: null } });
  });
});

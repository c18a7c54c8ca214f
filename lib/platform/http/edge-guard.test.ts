import { describe, expect, it } from "vitest";
// @ts-expect-error -- Next.js's own build helper, without types: the matcher compiled as the server compiles it
import { getMiddlewareMatchers } from "next/dist/build/analysis/get-page-static-info";
import { NextRequest } from "next/server";
import { config as proxyConfig, proxy } from "@/proxy";
import { edgeError, edgePage, wantsHtml, MAX_BODY_BYTES, pathOf, percentProblem, rawPathAndQuery, requestProblem, urlProblem } from "./edge-guard";

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

describe("the proxy's reach", () => {
  // The matcher as Next.js compiles it (next/dist/build/analysis/get-page-static-info.js), tested on request paths.
  const proxied = (pathname: string) => {
    const matchers = getMiddlewareMatchers(proxyConfig.matcher, {}) as { regexp: string }[];
    return matchers.some((m) => new RegExp(m.regexp).test(pathname));
  };

  it("leaves the APIs' plain paths to their routes, which check requests themselves", () => {
    for (const p of [
      "/api/v2",
      "/api/v2/products",
      "/api/v2/products/steam-us",
      "/api/v2/invoices/inv_1/pay",
      "/api/v2/check_phone_number",
      "/x402/gift-cards/search",
      "/x402/openapi.json",
      // The merchant API's refusal route checks its requests itself, as every route does.
      "/api/v2/edge-refusal",
      "/api/v2/edge-refusal/x",
    ]) {
      expect(proxied(p), p).toBe(false);
    }
  });

  it("passes everything else: pages, the operator's routes, paths with escapes or spaces", () => {
    for (const p of [
      "/",
      "/products/steam-us",
      "/dashboard",
      "/api/admin/merchants",
      "/api/health",
      "/api/v2/ping%FF",
      "/api/v2/products/a%20b",
      "/x402/a%00",
      "/x402x/a",
      "/api/v2x",
    ]) {
      expect(proxied(p), p).toBe(true);
    }
  });

  it("refuses, as the routes it does not see ask, a broken path or query (400) and a body declared too large (413)", () => {
    expect(requestProblem(new Request("http://shop.test/api/v2/products?start=%00"))).toEqual({
      status: 400,
      message: "The query string contains a NUL byte.",
    });
    expect(requestProblem(new Request("http://shop.test/x402/a?q=%FF"))).toEqual({ status: 400, message: "The query string is not valid UTF-8." });
    const declared = (length: string) =>
      requestProblem(new Request("http://shop.test/api/v2/invoices", { method: "POST", headers: { "Content-Length": length } }));
    expect(declared(String(MAX_BODY_BYTES + 1))).toEqual({ status: 413, message: "The request body is larger than 64 KB." });
    expect(declared("1e9")?.status).toBe(413);
    expect(declared(String(MAX_BODY_BYTES))).toBeUndefined();
    expect(requestProblem(new Request("http://shop.test/api/v2/products?q=caf%C3%A9"))).toBeUndefined();
  });

  it("asks the same of a path and query given apart from the request, with the request's own declared length", () => {
    const post = (length?: string) =>
      new Request("http://shop.test/api/v2/edge-refusal", { method: "POST", headers: length ? { "Content-Length": length } : {} });
    expect(requestProblem(post(), { pathAndQuery: "/api/v2/ping%FF" })).toEqual({ status: 400, message: "The path is not valid UTF-8." });
    expect(requestProblem(post("70000"), { pathAndQuery: "/api/v2/invoices" })).toEqual({ status: 413, message: "The request body is larger than 64 KB." });
    expect(requestProblem(post(), { pathAndQuery: "/api/v2/invoices?x=1" })).toBeUndefined();
    // Text the URL parser would clean (a NUL, a tab) is checked as it is given.
    expect(requestProblem(post(), { pathAndQuery: "\u0000/api/v2" })?.status).toBe(400);
    expect(rawPathAndQuery("http://shop.test/api/v2/ping%FF?q=%00&a=b")).toBe("/api/v2/ping%FF?q=%00&a=b");
    expect([pathOf("/a/b?c=d?e"), pathOf("/a/b")]).toEqual(["/a/b", "/a/b"]);
  });

  it("answers a broken path itself in the API's shape, and sends one under /api/v2 to the refusal route with nothing but its path and query", async () => {
    const x402 = proxy(new NextRequest("http://shop.test/x402/a%FF", { headers: { "X-Request-Id": "req-proxy-0001" } }));
    expect([x402.status, x402.headers.get("x-request-id"), await x402.json()]).toEqual([
      400,
      "req-proxy-0001",
      { code: "INVALID_PARAMETER", message: "The path is not valid UTF-8." },
    ]);
    const merchant = proxy(
      new NextRequest("http://shop.test/api/v2/ping%FF?x=%00", { headers: { Authorization: "Basic YTpi", "X-Request-Id": "req-proxy-0002" } }),
    );
    const rewrite = new URL(merchant.headers.get("x-middleware-rewrite")!);
    expect(rewrite.pathname + rewrite.search).toBe(`/api/v2/edge-refusal?url=${encodeURIComponent("/api/v2/ping%FF?x=%00")}`);
    expect(rewrite.searchParams.get("url")).toBe("/api/v2/ping%FF?x=%00");
    // The request goes on with its own headers and its id, and no header of the proxy's own.
    expect(merchant.headers.get("x-middleware-override-headers")?.split(",").sort()).toEqual(["authorization", "x-request-id"]);
    expect(merchant.headers.get("x-middleware-request-x-request-id")).toBe("req-proxy-0002");
    // A request with no problem goes on as it is.
    const fine = proxy(new NextRequest("http://shop.test/api/v2/products/a%20b"));
    expect(fine.headers.get("x-middleware-rewrite")).toBeNull();
    expect(fine.headers.get("x-middleware-next")).toBe("1");
  });

  it("answers a browser's page request with a page of its own: the reason, a search and the way home", async () => {
    const page = edgePage(400, "The query string holds <a NUL byte>.");
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain("<h1>This address cannot be read</h1>");
    expect(html).toContain("holds &#60;a NUL byte&#62;.");
    expect(html).toMatch(/<form action="\/search" method="get" role="search">/);
    expect(html).toContain('<a class="home" href="/">Go to the shop</a>');
    expect(await edgePage(413, "too big").text()).toContain("<h1>That request is too large</h1>");
    // A browser's navigation accepts HTML; a script's fetch, an image or a CSV download does not ask for it.
    expect(wantsHtml("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(true);
    expect(wantsHtml("*/*")).toBe(false);
    expect(wantsHtml(null)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { GET as balance } from "@/app/api/v2/accounts/balance/route";
import { GET as ping } from "@/app/api/v2/ping/route";
import * as invoicesRoute from "@/app/api/v2/invoices/route";
import * as payRoute from "@/app/api/v2/invoices/[id]/pay/route";
import * as refusalRoute from "@/app/api/v2/edge-refusal/route";
import { testDriver, processTestDatabase } from "@/test/db";
import { MERCHANT_ANONYMOUS_LIMIT } from "@/lib/platform/ratelimit";
import { merchantFallback } from "@/lib/api/merchant/route";
import { callRoute } from "@/test/merchant-api";

// Answers that no credential counts (a file of their own: they use up this process's budget of loopback clients).
processTestDatabase(() => undefined);

describe(`merchant API answers without a credential on ${testDriver}`, () => {
  it("answers a path that is no route with a JSON 404 and a method a route does not take with a JSON 405 and Allow, with the limit's fields", async () => {
    const call = async (handler: (req: Request) => Promise<Response>, method: string, path: string) => {
      const res = await handler(new Request(`http://shop.test${path}`, { method }));
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    };
    const missing = await call(merchantFallback, "GET", "/api/v2/no-such-endpoint");
    expect(missing).toMatchObject({ status: 404, body: { error_code: "not_found", meta: { _endpoint: "/no-such-endpoint" } } });
    expect(missing.headers.get("content-type")).toContain("application/json");
    expect(missing.headers.get("x-ratelimit-limit")).toBeTruthy();
    // The route file's own export of a method its path does not take (Next.js would answer it bare).
    const wrong = await call(invoicesRoute.DELETE, "DELETE", "/api/v2/invoices");
    expect(wrong).toMatchObject({ status: 405, body: { error_code: "method_not_allowed", meta: { _endpoint: "/invoices" } } });
    expect(wrong.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(wrong.headers.get("x-ratelimit-remaining")).toBeTruthy();
    expect(wrong.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers OPTIONS with Allow and the limit's fields, and the proxy's refusals in the API's envelope with them", async () => {
    const options = await payRoute.OPTIONS(new Request("http://shop.test/api/v2/invoices/inv_1/pay", { method: "OPTIONS" }));
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);
    expect(options.headers.get("x-ratelimit-limit")).toBe(String(MERCHANT_ANONYMOUS_LIMIT.points));

    // What the refusal route is handed after the proxy's rewrite: the refused request's own URL (Next.js keeps it).
    const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown, limit: res.headers.get("x-ratelimit-limit") });
    const broken = await answer(await refusalRoute.GET(new Request("http://shop.test/api/v2/ping%FF")));
    expect(broken).toEqual({
      status: 400,
      body: { meta: { _endpoint: null }, error_code: "invalid_param", message: "The path is not valid UTF-8." },
      limit: String(MERCHANT_ANONYMOUS_LIMIT.points),
    });
    const large = (path: string) => new Request(`http://shop.test${path}`, { method: "POST", headers: { "Content-Length": "70000" } });
    const tooLarge = await answer(await refusalRoute.POST(large("/api/v2/invoices%20x")));
    expect(tooLarge).toEqual({
      status: 413,
      body: { meta: { _endpoint: "/invoices%20x" }, error_code: "payload_too_large", message: "The request body is larger than 64 KB." },
      limit: String(MERCHANT_ANONYMOUS_LIMIT.points),
    });
    // Called by its own path, with the refused path and query in `url` (public: what the proxy's rewrite names), it
    // gives the same answers, found again from what the request holds.
    const named = (pathAndQuery: string, init?: RequestInit) =>
      new Request(`http://shop.test/api/v2/edge-refusal?url=${encodeURIComponent(pathAndQuery)}`, { headers: { "X-Request-Id": "req-edge-0001" }, ...init });
    const direct = await refusalRoute.GET(named("/api/v2/ping%FF"));
    expect(direct.headers.get("x-request-id")).toBe("req-edge-0001");
    expect(await answer(direct)).toEqual(broken);
    expect(await answer(await refusalRoute.POST(named("/api/v2/invoices%20x", { method: "POST", headers: { "Content-Length": "70000" } })))).toEqual(tooLarge);
    // What no route answers: a `url` without a problem, or outside the API, or none; an old header claims nothing.
    const notFound = { meta: { _endpoint: "/edge-refusal" }, error_code: "not_found" };
    for (const req of [
      named("/api/v2/ping"),
      named("/x402/a%FF"),
      new Request("http://shop.test/api/v2/edge-refusal"),
      new Request("http://shop.test/api/v2/edge-refusal", { headers: { "x-storefront-edge-refusal": "413 /api/v2/invoices" } }),
    ]) {
      const res = await answer(await refusalRoute.GET(req));
      expect(res, req.url).toMatchObject({ status: 404, body: notFound, limit: String(MERCHANT_ANONYMOUS_LIMIT.points) });
    }
  });

  it("refuses at the routes what the proxy refuses elsewhere (it does not see the API's plain paths), counted and with the limit's fields", async () => {
    const routes: [string, (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>][] = [
      ["/api/v2/ping", (req, ctx) => ping(req, ctx)],
      ["/api/v2/no-such-endpoint", (req) => merchantFallback(req)],
    ];
    for (const [path, handler] of routes) {
      const ctx = { params: Promise.resolve({}) };
      const broken = await handler(new Request(`http://shop.test${path}?start=%00`, { headers: { "X-Request-Id": "req-edge-0002" } }), ctx);
      expect([broken.status, await broken.json()], path).toEqual([
        400,
        { meta: { _endpoint: path.slice("/api/v2".length) }, error_code: "invalid_param", message: "The query string contains a NUL byte." },
      ]);
      expect(broken.headers.get("x-ratelimit-limit"), path).toBe(String(MERCHANT_ANONYMOUS_LIMIT.points));
      expect(broken.headers.get("x-request-id"), path).toBe("req-edge-0002");
      const declared = await handler(new Request(`http://shop.test${path}`, { method: "POST", headers: { "Content-Length": "70000" } }), ctx);
      expect([declared.status, ((await declared.json()) as { error_code: string }).error_code], path).toEqual([413, "payload_too_large"]);
      expect(declared.headers.get("x-ratelimit-remaining"), path).toBeTruthy();
    }
  });

  it("counts answers to requests without a valid credential against the client's address, with the limit's fields, up to a 429", async () => {
    const nope = { Authorization: "Basic bm9wZTpub3Bl" };
    const first = await callRoute(ping, "/api/v2/ping", { headers: nope });
    expect(first.status).toBe(401);
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(MERCHANT_ANONYMOUS_LIMIT.points));
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    const second = await callRoute(balance, "/api/v2/accounts/balance", {});
    expect(second.status).toBe(401);
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    let last = second;
    for (let i = 0; i < MERCHANT_ANONYMOUS_LIMIT.points && last.status !== 429; i++) last = await callRoute(ping, "/api/v2/ping", { headers: nope });
    expect(last).toMatchObject({ status: 429, body: { error_code: "too_many_requests" } });
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

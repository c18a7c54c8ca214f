import { afterEach, describe, expect, it } from "vitest";
import { noteDatabaseBack } from "@/lib/platform/db/outage";
import { log } from "@/lib/platform/log";
import { captureLog } from "@/test/log";
import { MAX_BODY_BYTES, type RequestProblem } from "./edge-guard";
import { guardedRoute } from "./guarded-route";

const ok = () => new Response("served", { status: 200 });

/** A handler that records whether it ran. */
function recording() {
  const calls: Request[] = [];
  return { calls, handler: async (req: Request) => (calls.push(req), ok()) };
}

afterEach(() => noteDatabaseBack());

describe("the guard of every route", () => {
  it("gives each request its id: the caller's plain token, else a new one; on the answer and the handler's log lines", async () => {
    const capture = captureLog();
    try {
      const route = guardedRoute(async () => {
        log.info("handled");
        return ok();
      });
      const given = await route(new Request("http://shop.test/api/health", { headers: { "X-Request-Id": "req-guard-0001" } }));
      expect([given.status, given.headers.get("x-request-id")]).toEqual([200, "req-guard-0001"]);
      expect(capture.lines.find((l) => l.msg === "handled")).toMatchObject({ request_id: "req-guard-0001" });
      const made = await route(new Request("http://shop.test/api/health", { headers: { "X-Request-Id": "no spaces allowed" } }));
      expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      capture.restore();
    }
  });

  it("refuses what the edge refuses before the handler runs, in the shape of the API at the path, with the request's id", async () => {
    const { calls, handler } = recording();
    const route = guardedRoute(handler);
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await route(new Request(`http://shop.test${path}`, { ...init, headers: { "X-Request-Id": "req-guard-0002", ...init.headers } }));
      expect(res.headers.get("x-request-id"), path).toBe("req-guard-0002");
      const text = await res.text();
      return { status: res.status, type: res.headers.get("content-type"), body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
    };
    expect(await call("/api/v2/ping?start=%00")).toEqual({
      status: 400,
      type: "application/json; charset=utf-8",
      body: { meta: { _endpoint: "/ping" }, error_code: "invalid_param", message: "The query string contains a NUL byte." },
    });
    // A broken path is not echoed back.
    expect((await call("/api/v2/ping%FF")).body).toEqual({ meta: { _endpoint: null }, error_code: "invalid_param", message: "The path is not valid UTF-8." });
    expect(await call("/x402/gift-cards/search?q=%FF")).toMatchObject({
      status: 400,
      body: { code: "INVALID_PARAMETER", message: "The query string is not valid UTF-8." },
    });
    expect(await call("/api/admin/merchants?x=%00")).toMatchObject({
      status: 400,
      body: { error_code: "invalid_param", message: "The query string contains a NUL byte." },
    });
    expect(await call("/api/gift-cards/balance", { method: "POST", headers: { "Content-Length": String(MAX_BODY_BYTES + 1) } })).toMatchObject({
      status: 413,
      body: { error_code: "payload_too_large", message: "The request body is larger than 64 KB." },
    });
    expect(await call("/x402/invoice/create", { method: "POST", headers: { "Content-Length": "70000" } })).toMatchObject({
      status: 413,
      body: { code: "PAYLOAD_TOO_LARGE" },
    });
    expect(await call("/dashboard/orders/export.csv?from=%ED%A0%80")).toEqual({
      status: 400,
      type: "text/plain; charset=utf-8",
      body: "Bad Request: The query string is not valid UTF-8.\n",
    });
    expect(calls).toHaveLength(0);
  });

  it("answers a problem with the route's own refusal when it has one, and serves what has none", async () => {
    const { calls, handler } = recording();
    const refused: [string, RequestProblem][] = [];
    const route = guardedRoute(handler, {
      refuse: async (req, problem) => {
        refused.push([new URL(req.url).pathname, problem]);
        return new Response("counted", { status: problem.status, headers: { "X-RateLimit-Limit": "60" } });
      },
    });
    const broken = await route(new Request("http://shop.test/api/v2/products?start=%00", { headers: { "X-Request-Id": "req-guard-0003" } }));
    expect([broken.status, await broken.text(), broken.headers.get("x-ratelimit-limit"), broken.headers.get("x-request-id")]).toEqual([
      400,
      "counted",
      "60",
      "req-guard-0003",
    ]);
    const large = await route(new Request("http://shop.test/api/v2/invoices", { method: "POST", headers: { "Content-Length": "1e9" } }));
    expect(large.status).toBe(413);
    expect(refused).toEqual([
      ["/api/v2/products", { status: 400, message: "The query string contains a NUL byte." }],
      ["/api/v2/invoices", { status: 413, message: "The request body is larger than 64 KB." }],
    ]);
    expect(calls).toHaveLength(0);
    const fine = await route(new Request("http://shop.test/api/v2/products?q=caf%C3%A9"));
    expect([fine.status, await fine.text()]).toEqual([200, "served"]);
    expect(calls).toHaveLength(1);
  });

  it("takes a larger body where the route says so (the operator's imports), and refuses one larger still", async () => {
    const route = guardedRoute(ok, { maxBody: 20 * 1024 * 1024 });
    const post = (length: number) =>
      route(new Request("http://shop.test/api/admin/catalog/import", { method: "POST", headers: { "Content-Length": String(length) } }));
    expect((await post(5 * 1024 * 1024)).status).toBe(200);
    const over = await post(20 * 1024 * 1024 + 1);
    expect([over.status, await over.json()]).toEqual([413, { error_code: "payload_too_large", message: "The request body is larger than 20 MB." }]);
  });

  it("hands the route's arguments on, answers a database outage 503 with Retry-After, and lets any other error through", async () => {
    const route = guardedRoute(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => new Response((await ctx.params).id));
    expect(await (await route(new Request("http://shop.test/img/products/a.webp"), { params: Promise.resolve({ id: "a.webp" }) })).text()).toBe("a.webp");

    const capture = captureLog();
    try {
      const down = guardedRoute(async () => {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      });
      const res = await down(new Request("http://shop.test/api/metrics", { headers: { "X-Request-Id": "req-guard-0004" } }));
      expect([res.status, res.headers.get("retry-after"), res.headers.get("cache-control"), res.headers.get("x-request-id")]).toEqual([
        503,
        "5",
        "no-store",
        "req-guard-0004",
      ]);
      expect(await res.json()).toMatchObject({ error_code: "service_unavailable" });
    } finally {
      capture.restore();
    }
    const broken = guardedRoute(async () => {
      throw new Error("a bug");
    });
    await expect(broken(new Request("http://shop.test/api/metrics"))).rejects.toThrow("a bug");
  });

  it("stamps the id on an answer whose headers cannot change (a fetched one) by copying it", async () => {
    const fetched = Response.redirect("http://shop.test/elsewhere", 302);
    expect(() => fetched.headers.set("x", "y")).toThrow();
    const res = await guardedRoute(async () => fetched)(new Request("http://shop.test/api/health", { headers: { "X-Request-Id": "req-guard-0005" } }));
    expect([res.status, res.headers.get("location"), res.headers.get("x-request-id")]).toEqual([302, "http://shop.test/elsewhere", "req-guard-0005"]);
  });
});

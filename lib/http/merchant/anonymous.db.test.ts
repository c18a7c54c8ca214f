import { describe, expect, it } from "vitest";
import { GET as balance } from "@/app/api/v2/accounts/balance/route";
import { GET as ping } from "@/app/api/v2/ping/route";
import { testDriver, processTestDatabase } from "@/lib/db/testing";
import { MERCHANT_ANONYMOUS_LIMIT } from "@/lib/ratelimit";
import { merchantFallback } from "./route";
import { callRoute } from "./testing";

// Answers that no credential counts (a file of their own: they use up this process's budget of loopback clients).
processTestDatabase(() => undefined);

describe(`merchant API answers without a credential on ${testDriver}`, () => {
  it("answers a path that is no route with a JSON 404 and a method a route does not take with a JSON 405 and Allow, with the limit's fields", async () => {
    const call = async (method: string, path: string) => {
      const res = await merchantFallback(new Request(`http://shop.test${path}`, { method }));
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    };
    const missing = await call("GET", "/api/v2/no-such-endpoint");
    expect(missing).toMatchObject({ status: 404, body: { error_code: "not_found", meta: { _endpoint: "/no-such-endpoint" } } });
    expect(missing.headers.get("content-type")).toContain("application/json");
    expect(missing.headers.get("x-ratelimit-limit")).toBeTruthy();
    const wrong = await call("DELETE", "/api/v2/_method-not-allowed/invoices");
    expect(wrong).toMatchObject({ status: 405, body: { error_code: "method_not_allowed", meta: { _endpoint: "/invoices" } } });
    expect(wrong.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(wrong.headers.get("x-ratelimit-remaining")).toBeTruthy();
  });

  it("answers OPTIONS with Allow and the limit's fields, and the proxy's refusals in the API's envelope with them", async () => {
    const options = await merchantFallback(new Request("http://shop.test/api/v2/_method-not-allowed/invoices/inv_1/pay", { method: "OPTIONS" }));
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);
    expect(options.headers.get("x-ratelimit-limit")).toBe(String(MERCHANT_ANONYMOUS_LIMIT.points));

    const refused = (status: string, path: string, message: string) =>
      merchantFallback(
        new Request("http://shop.test/api/v2/edge-refusal", {
          method: "POST",
          headers: { "x-storefront-edge-refusal": `${status} ${path}`, "x-storefront-edge-refusal-message": encodeURIComponent(message) },
        }),
      );
    const tooLarge = await refused("413", "/api/v2/invoices", "The request body is larger than 64 KB.");
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      meta: { _endpoint: "/invoices" },
      error_code: "payload_too_large",
      message: "The request body is larger than 64 KB.",
    });
    expect(tooLarge.headers.get("x-ratelimit-remaining")).toBeTruthy();
    const broken = await refused("400", "/api/v2/ping%FF", "The path is not valid UTF-8.");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ meta: { _endpoint: null }, error_code: "invalid_param", message: "The path is not valid UTF-8." });
    expect(broken.headers.get("x-ratelimit-limit")).toBeTruthy();
    // Without the proxy's word, the path is no route.
    const bare = await merchantFallback(new Request("http://shop.test/api/v2/edge-refusal"));
    expect(bare.status).toBe(404);
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

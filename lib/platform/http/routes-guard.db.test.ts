import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as adminMerchants } from "@/app/api/admin/merchants/route";
import { POST as catalogImport } from "@/app/api/admin/catalog/import/route";
import { POST as giftCardBalance } from "@/app/api/gift-cards/balance/route";
import { GET as productImage } from "@/app/img/products/[file]/route";
import { IMPORT_BODY_LIMIT } from "@/lib/api/admin/wire";
import { edgeError, surfaceOf } from "@/lib/platform/http/edge-guard";
import { processTestDatabase } from "@/test/db";

// The merchant API's refusals are counted against the client's address: a database for its counters.
processTestDatabase(() => undefined);

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const ctx = { params: Promise.resolve({ id: "x1", file: "x1.webp", path: ["x1"] as unknown as string }) };
const nul = (path: string, init?: RequestInit) => new Request(`http://shop.test${path}?start=%00`, { headers: { "X-Request-Id": "req-guard-0100" }, ...init });

/** Every route file under app/ with the path it answers (`[id]` -> `x1`, route groups dropped) and its method handlers. */
function routeFiles(): { file: string; path: string }[] {
  const root = path.resolve("app");
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === "route.ts")
    .map((file) => {
      const segments = path
        .dirname(file)
        .split(path.sep)
        .filter((s) => s !== "." && !/^\(.*\)$/.test(s))
        .map((s) => (s.startsWith("[") ? "x1" : s));
      return { file: path.join(root, file), path: "/" + segments.join("/") };
    });
}

describe("every route refuses what the edge refuses, whether the proxy ran or not", () => {
  it("an operator route and the shop's plain routes answer a NUL in the query with 400 in their API's shape, before anything else", async () => {
    // The operator's: before the admin token is asked for.
    const admin = await adminMerchants(nul("/api/admin/merchants", { method: "POST", body: "{}" }), { params: Promise.resolve({}) });
    expect([admin.status, admin.headers.get("x-request-id"), await admin.json()]).toEqual([
      400,
      "req-guard-0100",
      { error_code: "invalid_param", message: "The query string contains a NUL byte." },
    ]);
    const balance = await giftCardBalance(nul("/api/gift-cards/balance", { method: "POST", body: "{}" }));
    expect([balance.status, await balance.json()]).toEqual([400, { error_code: "invalid_param", message: "The query string contains a NUL byte." }]);
    const image = await productImage(nul("/img/products/a.webp"), { params: Promise.resolve({ file: "a.webp" }) });
    expect([image.status, image.headers.get("content-type"), await image.text()]).toEqual([
      400,
      "text/plain; charset=utf-8",
      "Bad Request: The query string contains a NUL byte.\n",
    ]);
  });

  it("every route file's handlers answer so, as the proxy would, each in the shape of the API at its path", async () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(60);
    const seen = new Set<string>();
    for (const { file, path: routePath } of files) {
      const mod = (await import(file)) as Record<string, unknown>;
      const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => typeof mod[m] === "function");
      expect(methods.length, file).toBeGreaterThan(0);
      // The merchant API's answers are counted against this process's loopback client: one method a file.
      for (const method of surfaceOf(routePath) === "merchant" ? methods.slice(0, 1) : methods) {
        const res = await (mod[method] as RouteHandler)(nul(routePath, { method }), ctx);
        const expected = edgeError(routePath, 400, "The query string contains a NUL byte.");
        const label = `${method} ${routePath}`;
        expect([res.status, res.headers.get("content-type"), await res.text()], label).toEqual([
          400,
          expected.headers.get("content-type"),
          await expected.text(),
        ]);
        expect(res.headers.get("x-request-id"), label).toBe("req-guard-0100");
        if (surfaceOf(routePath) === "merchant") expect(res.headers.get("x-ratelimit-limit"), label).toBeTruthy();
        seen.add(surfaceOf(routePath));
      }
    }
    expect([...seen].sort()).toEqual(["admin", "api", "merchant", "page", "x402"]);
  });

  it("the operator's imports take bodies of up to 20 MB: a larger one declared is refused, a smaller one goes on to the token", async () => {
    const post = (length: number) =>
      catalogImport(new Request("http://shop.test/api/admin/catalog/import", { method: "POST", headers: { "Content-Length": String(length) } }), {
        params: Promise.resolve({}),
      });
    const within = await post(1024 * 1024);
    expect([within.status, ((await within.json()) as { error_code: string }).error_code]).toEqual([401, "unauthorized"]);
    const over = await post(IMPORT_BODY_LIMIT + 1);
    expect([over.status, await over.json()]).toEqual([413, { error_code: "payload_too_large", message: "The request body is larger than 20 MB." }]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { GET as checkPhone } from "@/app/api/v2/check_phone_number/route";
import { GET as esimDetail } from "@/app/api/v2/products/esims/[id]/route";
import { GET as esims } from "@/app/api/v2/products/esims/route";
import { GET as productDetail } from "@/app/api/v2/products/[id]/route";
import { GET as productList } from "@/app/api/v2/products/route";
import { GET as productSearch } from "@/app/api/v2/products/search/route";
import type { Database } from "@/lib/platform/db";
import { testDriver, processTestDatabase, withTestCatalog } from "@/test/db";
import { createMerchant } from "@/lib/merchants";
import { bearerAuth, callRoute, TEST_ORIGIN } from "@/test/merchant-api";

let database: Database;
let auth: Record<string, string>;
processTestDatabase((d) => (database = d), withTestCatalog);
beforeAll(async () => {
  auth = bearerAuth((await createMerchant(database.db, { name: "Catalog reader" })).api_token);
});

type P = {
  id: string;
  type: string;
  packages: { id: string; package_id: string; value: string; amount: number; price: number }[];
  coverage?: string[];
  is_test: boolean;
};
const get = async (handler: Parameters<typeof callRoute>[0], path: string, params?: Record<string, string>) =>
  callRoute(handler, path, { headers: auth, params });

describe(`merchant catalog routes on ${testDriver}`, () => {
  it("pages the whole catalog with start/limit and an absolute meta._next, test products only when asked", async () => {
    const seen = new Set<string>();
    let next: string | undefined = "/api/v2/products?limit=50";
    let pages = 0;
    while (next) {
      const res = await get(productList, next.replace(TEST_ORIGIN, ""));
      expect(res.status).toBe(200);
      const meta = res.body.meta as { _endpoint: string; start: number; limit: number; count: number; _next?: string; include_test_products: string };
      expect(meta).toMatchObject({ _endpoint: "/products", limit: 50, include_test_products: "false" });
      for (const p of res.body.data as P[]) {
        expect(seen.has(p.id)).toBe(false);
        seen.add(p.id);
        expect(p.is_test).toBe(false);
      }
      if (meta._next) expect(meta._next).toMatch(new RegExp(`^${TEST_ORIGIN}/api/v2/products\\?limit=50&start=\\d+$`));
      next = meta._next;
      pages++;
    }
    expect(seen.size).toBeGreaterThanOrEqual(500);
    expect(pages).toBe(Math.ceil(seen.size / 50));

    const ids = async (query: string) => {
      const all: string[] = [];
      for (let start = 0; ; start += 50) {
        const res = await get(productList, `/api/v2/products?${query}&limit=50&start=${start}`);
        all.push(...(res.body.data as P[]).map((p) => p.id));
        if (!(res.body.meta as { _next?: string })._next) return all;
      }
    };
    const withTests = await ids("include_test_products=true");
    expect(withTests).toEqual(expect.arrayContaining(["test-gift-card-code", "test-gift-card-code-fail", "test-esim-product"]));
    expect(withTests.length - seen.size).toBe(withTests.filter((id) => id.startsWith("test-")).length);
  });

  it("shows a product with its packages in the clients' shape (package ids both ways, integer cents)", async () => {
    const res = await get(productDetail, "/api/v2/products/steam-us", { id: "steam-us" });
    expect(res.status).toBe(200);
    const p = res.body.data as P & Record<string, unknown>;
    expect(p).toMatchObject({
      id: "steam-us",
      type: "gift_card",
      country_code: "US",
      country_name: "United States",
      currency: "USD",
      recipient_type: "none",
      in_stock: true,
    });
    expect(p.image).toMatch(/^http:\/\/shop\.test\//);
    const first = p.packages[0]!;
    expect(first.id).toBe(`steam-us<&>${first.value}`);
    expect(first.package_id).toBe(first.id);
    expect(Number.isInteger(first.price)).toBe(true);
    expect(first.price).toBeGreaterThanOrEqual(first.amount * 100);

    const test = (await get(productDetail, "/api/v2/products/test-gift-card-code", { id: "test-gift-card-code" })).body.data as P;
    expect(test.is_test).toBe(true);
    expect(test.packages.find((pk) => pk.value === "10")?.price).toBe(1000);
    expect(await get(productDetail, "/api/v2/products/nope", { id: "nope" })).toMatchObject({
      status: 404,
      body: { error_code: "not_found", meta: { _endpoint: "/products/nope" } },
    });
  });

  it("searches with q (required, 1-100 characters) and hints when nothing matches", async () => {
    const res = await get(productSearch, "/api/v2/products/search?q=steam&limit=5");
    expect(res.status).toBe(200);
    expect((res.body.data as P[])[0]?.id).toMatch(/^steam-/);
    expect(res.body.meta).toMatchObject({ _endpoint: "/products/search", limit: 5, count: 5 });
    expect(await get(productSearch, "/api/v2/products/search")).toMatchObject({
      status: 400,
      body: { error_code: "missing_param", message: "Missing required parameter: q" },
    });
    expect(await get(productSearch, `/api/v2/products/search?q=${"x".repeat(101)}`)).toMatchObject({ status: 400, body: { error_code: "invalid_param" } });
    expect(await get(productSearch, "/api/v2/products/search?q=%20")).toMatchObject({ status: 400, body: { error_code: "invalid_param" } });
    const none = await get(productSearch, "/api/v2/products/search?q=qwxzvbnm");
    expect((none.body.meta as { hint?: string }).hint).toMatch(/Try a brand/);
  });

  it("refuses bad paging and filters with invalid_param naming the parameter", async () => {
    for (const [q, param] of [
      ["limit=51", "limit"],
      ["limit=0", "limit"],
      ["limit=ten", "limit"],
      ["start=-1", "start"],
      ["type=voucher", "type"],
      ["country=Germany", "country"],
      ["include_test_products=maybe", "include_test_products"],
    ] as const) {
      const res = await get(productList, `/api/v2/products?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body).toMatchObject({ error_code: "invalid_param" });
      expect(res.body.message).toContain(param);
    }
  });

  it("lists eSIMs with coverage, and shows one; a gift card is not an eSIM", async () => {
    const list = await get(esims, "/api/v2/products/esims?country=JP&limit=10");
    const items = list.body.data as P[];
    expect(items.length).toBeGreaterThan(0);
    for (const p of items) {
      expect(p.type).toBe("esim");
      expect(p.coverage).toContain("JP");
    }
    const one = await get(esimDetail, "/api/v2/products/esims/esim-japan", { id: "esim-japan" });
    expect(one.body.data).toMatchObject({ id: "esim-japan", type: "esim", coverage: ["JP"] });
    expect((one.body.data as P).packages[0]?.value).toMatch(/GB|Unlimited/);
    expect((await get(esimDetail, "/api/v2/products/esims/steam-us", { id: "steam-us" })).status).toBe(404);
    expect(one.body.data).toMatchObject({ region: null });
  });

  it("narrows eSIMs to a region (regional and global eSIMs), any case", async () => {
    const europe = (await get(esims, "/api/v2/products/esims?region=europe&limit=50")).body.data as (P & { region: string | null })[];
    expect(europe.length).toBeGreaterThan(0);
    for (const p of europe) expect(p.region).toBe("Europe");
    const global = (await get(esims, "/api/v2/products/esims?region=Global")).body.data as (P & { region: string | null })[];
    expect(global.map((p) => p.region)).toEqual(global.map(() => "Global"));
    expect((await get(esims, "/api/v2/products/esims?region=Atlantis")).body.data).toEqual([]);
  });

  it("checks phone numbers: E.164 expected, operators that serve it, unsupported operators", async () => {
    const ok = await get(checkPhone, "/api/v2/check_phone_number?phone_number=%2B14155550134");
    expect(ok.status).toBe(200);
    const data = ok.body.data as { phone_number: string; operators: { id: string; name: string }[] };
    expect(data.phone_number).toBe("+14155550134");
    expect(data.operators.length).toBeGreaterThan(0);
    const op = data.operators[0]!.id;
    expect((await get(checkPhone, `/api/v2/check_phone_number?phone_number=%2B14155550134&operator=${op}`)).status).toBe(200);
    expect(await get(checkPhone, "/api/v2/check_phone_number?phone_number=%2B14155550134&operator=no-such-operator")).toMatchObject({
      status: 400,
      body: { error_code: "unsupported_operator" },
    });
    expect(await get(checkPhone, "/api/v2/check_phone_number?phone_number=12345")).toMatchObject({ status: 400, body: { error_code: "invalid_phone_number" } });
    expect(await get(checkPhone, "/api/v2/check_phone_number")).toMatchObject({ status: 400, body: { error_code: "missing_param" } });
  });
});

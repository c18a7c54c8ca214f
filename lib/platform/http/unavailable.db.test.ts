import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as ping } from "@/app/api/v2/ping/route";
import { GET as adminMerchant } from "@/app/api/admin/merchants/[id]/route";
import { POST as giftCardBalance } from "@/app/api/gift-cards/balance/route";
import { GET as productImage } from "@/app/img/products/[file]/route";
import { openTestDatabase, testDriver, useAsProcessDatabase } from "@/test/db";
import { issueSessionToken } from "@/lib/identity";
import { X402_HANDLERS } from "@/lib/agents/x402/handlers";
import { basicAuth, callRoute, TEST_ORIGIN } from "@/test/merchant-api";

const ADMIN = "adm_test_token_for_the_admin_api_0123456789";
let restore: (() => void) | undefined;
beforeAll(async () => {
  process.env.ADMIN_TOKEN = ADMIN;
  // The process's database, closed under the shop: every query fails as it does while the embedded database is
  // closing, or a server's connections are gone.
  const database = await openTestDatabase();
  restore = useAsProcessDatabase(database);
  await database.close();
});
afterAll(() => restore?.());

// The embedded database's own failure; the PostgreSQL outage has its test (lib/checkout/merchant-api/outage.db.test.ts).
describe.skipIf(testDriver === "postgres")("every API while the database is unavailable", () => {
  it("the merchant API answers 503 service_unavailable in its envelope, with Retry-After", async () => {
    const res = await callRoute(ping, "/api/v2/ping", { headers: basicAuth("ak_AAAAAAAAAAAAAAAAAAAAAA", "secret") });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.body).toMatchObject({ meta: { _endpoint: "/ping" }, error_code: "service_unavailable" });
  });

  it("the x402 API answers 503 SERVICE_UNAVAILABLE in its shape, with Retry-After", async () => {
    const { token } = await issueSessionToken({ chainId: "eip155:8453", address: "0xeaA9349c8fD27f2aa8125737C0D1a57455B5fBb8" });
    const res = await X402_HANDLERS.myOrders(new Request(`${TEST_ORIGIN}/x402/my/orders`, { headers: { "X-Access-Token": token } }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("the operator's API, the gift card balance and the other routes answer 503 with Retry-After", async () => {
    const admin = await callRoute(adminMerchant, "/api/admin/merchants/mer_1", { headers: { Authorization: `Bearer ${ADMIN}` }, params: { id: "mer_1" } });
    expect([admin.status, admin.body.error_code]).toEqual([503, "service_unavailable"]);
    expect(admin.headers.get("retry-after")).toBe("5");

    const balance = await callRoute(giftCardBalance, "/api/gift-cards/balance", { body: { code: "AAAA-BBBB-CCCC-DDDD-EEEE" } });
    expect([balance.status, balance.body.code]).toEqual([503, "SERVICE_UNAVAILABLE"]);
    expect(balance.headers.get("retry-after")).toBe("5");

    const image = await productImage(new Request(`${TEST_ORIGIN}/img/products/steam.svg`), { params: Promise.resolve({ file: "steam.svg" }) });
    expect(image.status).toBe(503);
    expect(image.headers.get("retry-after")).toBe("5");
    expect(await image.json()).toMatchObject({ error_code: "service_unavailable" });
  });
});

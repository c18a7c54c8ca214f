import { beforeAll, describe, expect, it } from "vitest";
import { POST as creditMerchant } from "@/app/api/admin/merchants/[id]/credit/route";
import { POST as createMerchantRoute } from "@/app/api/admin/merchants/route";
import { GET as balance } from "@/app/api/v2/accounts/balance/route";
import { GET as ping } from "@/app/api/v2/ping/route";
import { testDriver, processTestDatabase } from "@/test/db";
import { basicAuth, bearerAuth, callRoute } from "@/test/merchant-api";
import { installPeerAddress, PEER_HEADER } from "@/lib/platform/http/peer-address";

const ADMIN = "adm_test_token_for_the_admin_api_0123456789";
beforeAll(() => {
  process.env.ADMIN_TOKEN = ADMIN;
});
processTestDatabase(() => undefined);

const admin = { Authorization: `Bearer ${ADMIN}` };
type Created = { merchant_id: string; api_id: string; api_secret: string; api_token: string; webhook_secret: string };

async function newMerchant(body: unknown = { name: "Shop", credit_usd: 100 }): Promise<Created> {
  const res = await callRoute(createMerchantRoute, "/api/admin/merchants", { headers: admin, body });
  expect(res.status).toBe(201);
  return res.body as unknown as Created;
}

describe(`admin API and account routes on ${testDriver}`, () => {
  it("creates a merchant with the admin token; its credentials answer ping and balance", async () => {
    const m = await newMerchant({ name: "Acme", credit_usd: "100.50" });
    expect(Object.keys(m).sort()).toEqual(["api_id", "api_secret", "api_token", "merchant_id", "webhook_secret"]);

    const viaBasic = await callRoute(ping, "/api/v2/ping", { headers: basicAuth(m.api_id, m.api_secret) });
    expect(viaBasic).toMatchObject({ status: 200, body: { meta: { _endpoint: "/ping" }, message: "pong", data: { message: "pong" } } });
    const viaBearer = await callRoute(balance, "/api/v2/accounts/balance", { headers: bearerAuth(m.api_token) });
    expect(viaBearer).toMatchObject({ status: 200, body: { meta: { _endpoint: "/accounts/balance" }, data: { balance: 10_050, currency: "USD" } } });

    const credited = await callRoute(creditMerchant, `/api/admin/merchants/${m.merchant_id}/credit`, {
      headers: admin,
      body: { amount_usd: 20 },
      params: { id: m.merchant_id },
    });
    expect(credited).toMatchObject({ status: 200, body: { merchant_id: m.merchant_id, balance: 12_050, currency: "USD" } });
    expect((await callRoute(balance, "/api/v2/accounts/balance", { headers: bearerAuth(m.api_token) })).body.data).toEqual({
      balance: 12_050,
      currency: "USD",
    });
  });

  it("refuses the admin API without the token, and bad admin input with a clear error", async () => {
    expect((await callRoute(createMerchantRoute, "/api/admin/merchants", { body: { name: "X" } })).status).toBe(401);
    expect((await callRoute(createMerchantRoute, "/api/admin/merchants", { headers: { Authorization: "Bearer wrong" }, body: { name: "X" } })).status).toBe(
      401,
    );
    expect(await callRoute(createMerchantRoute, "/api/admin/merchants", { headers: admin, body: {} })).toMatchObject({
      status: 400,
      body: { error_code: "invalid_param" },
    });
    expect(await callRoute(createMerchantRoute, "/api/admin/merchants", { headers: admin, body: "{not json" })).toMatchObject({
      status: 400,
      body: { error_code: "parse_error" },
    });
    expect(await callRoute(createMerchantRoute, "/api/admin/merchants", { headers: admin, body: { name: "X", credit_usd: -5 } })).toMatchObject({
      status: 400,
      body: { error_code: "invalid_param" },
    });
    expect(await callRoute(createMerchantRoute, "/api/admin/merchants", { headers: admin, body: { name: "X", credit_usd: "1.234" } })).toMatchObject({
      status: 400,
    });
    const unknown = "mer_01AAAAAAAAAAAAAAAAAAAAAAAA";
    expect(
      await callRoute(creditMerchant, `/api/admin/merchants/${unknown}/credit`, { headers: admin, body: { amount_usd: 5 }, params: { id: unknown } }),
    ).toMatchObject({ status: 404 });
    const m = await newMerchant();
    expect(
      await callRoute(creditMerchant, `/api/admin/merchants/${m.merchant_id}/credit`, {
        headers: admin,
        body: { amount_usd: 0 },
        params: { id: m.merchant_id },
      }),
    ).toMatchObject({ status: 400 });
  });

  it("limits ping to 1 request per 3 seconds per credential, with the rate-limit fields on every answer", async () => {
    const m = await newMerchant();
    const first = await callRoute(ping, "/api/v2/ping", { headers: bearerAuth(m.api_token) });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("1");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    expect(first.headers.get("ratelimit-policy")).toMatch(/q=1;w=3/);
    const second = await callRoute(ping, "/api/v2/ping", { headers: bearerAuth(m.api_token) });
    expect(second).toMatchObject({ status: 429, body: { error_code: "too_many_requests", meta: { _endpoint: "/ping" } } });
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Per account: the same merchant's business key shares the count; another merchant has its own.
    expect((await callRoute(ping, "/api/v2/ping", { headers: basicAuth(m.api_id, m.api_secret) })).status).toBe(429);
    const other = await newMerchant();
    expect((await callRoute(ping, "/api/v2/ping", { headers: basicAuth(other.api_id, other.api_secret) })).status).toBe(200);
    // Errors after sign-in carry the fields too.
    const bad = await callRoute(balance, "/api/v2/accounts/balance?x=1", { headers: bearerAuth(m.api_token) });
    expect(bad.headers.get("x-ratelimit-limit")).toBe("60");
  });

  it("answers 401 in the API's envelope for wrong credentials and the wrong scheme", async () => {
    const m = await newMerchant();
    for (const headers of [
      { Authorization: "" },
      { Authorization: "Basic" },
      basicAuth(m.api_id, "sk_nope"),
      { Authorization: `Bearer ${m.api_secret}` },
      basicAuth(...(m.api_token.split(".") as [string, string])),
    ]) {
      const res = await callRoute(ping, "/api/v2/ping", { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toMatchObject({ meta: { _endpoint: "/ping" }, error_code: "unauthorized" });
      expect(res.headers.get("www-authenticate")).toContain("Basic");
    }
  });

  it("answers ping without credentials as a liveness check, counted per client address against the ping's limit; every other route still requires them", async () => {
    installPeerAddress();
    const from = (address: string) => ({ [PEER_HEADER]: address });
    const first = await callRoute(ping, "/api/v2/ping", { headers: from("198.51.100.21") });
    expect(first).toMatchObject({ status: 200, body: { meta: { _endpoint: "/ping" }, message: "pong", data: { message: "pong" } } });
    expect(first.headers.get("x-ratelimit-limit")).toBe("1");
    expect(first.headers.get("ratelimit-policy")).toMatch(/q=1;w=3/);
    // The same address within 3 s: the ping's limit; another address has its own (an IPv6 client: its /64).
    const again = await callRoute(ping, "/api/v2/ping", { headers: from("198.51.100.21") });
    expect(again).toMatchObject({ status: 429, body: { error_code: "too_many_requests", meta: { _endpoint: "/ping" } } });
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await callRoute(ping, "/api/v2/ping", { headers: from("2001:db8:5::1") })).status).toBe(200);
    expect((await callRoute(ping, "/api/v2/ping", { headers: from("2001:db8:5::2") })).status).toBe(429);
    // Credentials that are sent are checked: a wrong key is 401, whatever the address's count.
    const m = await newMerchant();
    const wrong = await callRoute(ping, "/api/v2/ping", { headers: { ...from("198.51.100.22"), ...basicAuth(m.api_id, "sk_nope") } });
    expect(wrong).toMatchObject({ status: 401, body: { error_code: "unauthorized" } });
    // A merchant's own count is not the address's: its first ping passes from an address that has used its own.
    expect((await callRoute(ping, "/api/v2/ping", { headers: { ...from("198.51.100.21"), ...bearerAuth(m.api_token) } })).status).toBe(200);
    // Every other route still requires credentials.
    const balanceWithout = await callRoute(balance, "/api/v2/accounts/balance", { headers: from("198.51.100.23") });
    expect(balanceWithout).toMatchObject({ status: 401, body: { error_code: "unauthorized" } });
  });
});

/**
 * Wrong gift card codes are limited per address and per holder (GIFT_CARD_GUESS_LIMITS), on the balance route, on a
 * wallet's invoice and on a merchant's; codes that name a card never add up. And the balance route reads a card for
 * whoever holds its code.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { POST as balance } from "@/app/api/gift-cards/balance/route";
import { POST as createMerchantInvoice } from "@/app/api/v2/invoices/route";
import { syncFxSource } from "@/lib/catalog/fx-store";
import type { Database } from "@/lib/platform/db";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { basicAuth, callRoute } from "@/test/merchant-api";
import { installPeerAddress, PEER_HEADER } from "@/lib/platform/http/peer-address";
import { createInvoiceResponse } from "@/lib/checkout/x402/invoice";
import { createMerchant } from "@/lib/merchants";
import { batchCards, createBatch, issueBatch } from "@/lib/merchants/gift-card-batches";
import { GIFT_CARD_GUESS_LIMITS } from "@/lib/platform/ratelimit/policies";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

const WRONG = "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ";

async function cardCode(value: number): Promise<string> {
  const m = await createMerchant(database.db, { name: "Cards", creditCents: 1_000_000n });
  const batch = await createBatch(database.db, m.merchant_id, { quantity: 1, value, currency: "USD" }, await syncFxSource(database.db));
  await issueBatch(database.db, batch.id);
  return (await batchCards(database.db, batch.id))[0]!.code;
}

function askBalance(code: string, ip: string) {
  installPeerAddress();
  return balance(
    new Request("http://shop.test/api/gift-cards/balance", {
      method: "POST",
      headers: { "Content-Type": "application/json", [PEER_HEADER]: ip },
      body: JSON.stringify({ code }),
    }),
  );
}

describe(`gift card codes tried, on ${testDriver}`, () => {
  it("shows a card to whoever holds its code, and stops an address after too many wrong codes", async () => {
    const code = await cardCode(15);
    const res = await askBalance(code.toLowerCase().replace(/-/g, " "), "198.51.100.10");
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ currency: "USD", value: "15", balance: "15", held: "0", history: [] });
    // Right codes do not add up.
    for (let i = 0; i < GIFT_CARD_GUESS_LIMITS.ip.points + 5; i++) expect((await askBalance(code, "198.51.100.10")).status).toBe(200);
    for (let i = 0; i < GIFT_CARD_GUESS_LIMITS.ip.points; i++) {
      const wrong = await askBalance(WRONG, "198.51.100.10");
      expect(wrong.status).toBe(404);
      expect(await wrong.json()).toMatchObject({ code: "INVALID_GIFT_CARD" });
    }
    const stopped = await askBalance(code, "198.51.100.10");
    expect(stopped.status).toBe(429);
    expect(Number(stopped.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await stopped.json()).toMatchObject({ code: "RATE_LIMITED" });
    // Another address is not held up; a body without a code is refused as such.
    expect((await askBalance(code, "198.51.100.11")).status).toBe(200);
    const empty = await balance(new Request("http://shop.test/api/gift-cards/balance", { method: "POST", body: "{}" }));
    expect(empty.status).toBe(400);
    const huge = await askBalance("X".repeat(65), "198.51.100.11");
    expect(huge.status).toBe(400);
  });

  it("stops a wallet after too many wrong codes on its invoices, from any address", async () => {
    const payer = { chainId: "eip155:84532", address: privateKeyToAccount(generatePrivateKey()).address };
    const create = (code: string, ip: string) =>
      createInvoiceResponse(
        new Request("http://shop.test/x402/invoice/create", {
          method: "POST",
          headers: { "Content-Type": "application/json", [PEER_HEADER]: ip },
          body: JSON.stringify({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], gift_card_code: code }),
        }),
        payer,
        "http://shop.test",
      );
    installPeerAddress();
    for (let i = 0; i < GIFT_CARD_GUESS_LIMITS.holder.points; i++) {
      await expect(create(WRONG, `203.0.113.${i + 1}`)).rejects.toMatchObject({ code: "unknown_gift_card" });
    }
    await expect(create(await cardCode(50), "203.0.113.99")).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("stops a merchant account after too many wrong codes, and never counts codes that name a card", async () => {
    const m = await createMerchant(database.db, { name: "Guesser", creditCents: 0n });
    const code = await cardCode(500);
    const invoice = (gift_card_code: string) =>
      callRoute(createMerchantInvoice, "/api/v2/invoices", {
        method: "POST",
        headers: basicAuth(m.api_id, m.api_secret),
        body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "gift_card", gift_card_code },
      });
    for (let i = 0; i < GIFT_CARD_GUESS_LIMITS.holder.points + 2; i++) expect((await invoice(code)).status).toBe(200);
    for (let i = 0; i < GIFT_CARD_GUESS_LIMITS.holder.points; i++) expect((await invoice(WRONG)).body).toMatchObject({ error_code: "invalid_param" });
    const stopped = await invoice(code);
    expect(stopped.status).toBe(429);
    expect(stopped.body).toMatchObject({ error_code: "too_many_requests" });
  });
});

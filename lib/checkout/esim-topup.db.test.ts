import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { drainDue } from "@/lib/fulfilment";
import { createDemoProvider } from "@/lib/fulfilment/providers/demo";
import { luhnCheckDigit } from "@/lib/catalog/iccid";
import { payInvoice } from "@/test/fulfilment";
import { walletOwnerKey, type Wallet } from "@/lib/identity";
import { createInvoice } from "./create-invoice";
import { DomainError } from "@/lib/platform/errors";
import { listWalletEsims } from "./wallet-esims";

let database: Database;
const demo = createDemoProvider("esim top-up test key");
const alice: Wallet = { chainId: "eip155:84530402", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" };
const bob: Wallet = { chainId: "eip155:84530402", address: "0x6813Eb9362372EEF6200f3b1dbC3f819671cBA69" };

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

async function buyAndDeliver(payer: Wallet, items: { product_id: string; package_value: string; refill_input?: string }[]) {
  const inv = await createInvoice({ items, payer }, database.db);
  await payInvoice(database.db, inv.id);
  await drainDue(database.db, { provider: demo });
  return inv;
}

async function refusal(payer: Wallet, refill: string, productId = "test-esim-product"): Promise<DomainError> {
  const err = await createInvoice({ items: [{ product_id: productId, package_value: "1GB, 7 Days", refill_input: refill }], payer }, database.db).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe(`eSIM top-ups on ${testDriver}`, () => {
  it("adds a bundle to an eSIM the wallet holds, and lists both bundles on that one eSIM", async () => {
    await buyAndDeliver(alice, [{ product_id: "test-esim-product", package_value: "3GB, 30 Days" }]);
    const [esim] = await listWalletEsims(database.db, walletOwnerKey(alice)!);
    expect(esim?.bundles).toHaveLength(1);
    const iccid = esim!.iccid;

    const topup = await buyAndDeliver(alice, [
      { product_id: "test-esim-product", package_value: "1GB, 7 Days", refill_input: `${iccid.slice(0, 4)} ${iccid.slice(4)}` },
    ]);
    expect(topup.items[0]?.recipient).toBe(iccid);
    const [order] = await database.db.select().from(orders).where(eq(orders.invoiceId, topup.id));
    expect(order).toMatchObject({ status: "delivered", redemption: { iccid, esim: { iccid, topup: true } } });

    const esims = await listWalletEsims(database.db, walletOwnerKey(alice)!);
    expect(esims).toHaveLength(1);
    expect(esims[0]).toMatchObject({ iccid, lpa: esim!.lpa });
    expect(esims[0]!.bundles.map((b) => [b.value, b.validityDays])).toEqual([
      ["3GB, 30 Days", 30],
      ["1GB, 7 Days", 7],
    ]);
  });

  it("refuses an ICCID that is malformed, unknown, or another wallet's", async () => {
    const [esim] = await listWalletEsims(database.db, walletOwnerKey(alice)!);
    const iccid = esim!.iccid;
    const flipped = iccid.slice(0, -1) + String((Number(iccid.slice(-1)) + 1) % 10);
    expect(await refusal(alice, flipped)).toMatchObject({ code: "invalid_recipient", message: expect.stringMatching(/^not an ICCID/) });
    expect(await refusal(alice, "12345")).toMatchObject({ code: "invalid_recipient", path: ["items", 0, "refill_input"] });
    const stranger = "894450000000000000";
    expect(await refusal(alice, stranger + luhnCheckDigit(stranger))).toMatchObject({
      code: "invalid_recipient",
      message: expect.stringMatching(/holds no Test eSIM/),
    });
    expect(await refusal(bob, iccid)).toMatchObject({ code: "invalid_recipient" });
  });
});

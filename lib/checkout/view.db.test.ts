import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import type { Wallet } from "@/lib/identity";
import { createInvoiceBody } from "@/lib/api/x402/cart";
import { createInvoice } from "./create-invoice";
import { getStatus } from "./view";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(async () => {
  await database?.close();
});

const payer: Wallet = { chainId: "eip155:84530402", address: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" };
const stranger: Wallet = { chainId: "eip155:84530402", address: "0x6813Eb9362372EEF6200f3b1dbC3f819671cBA69" };

describe(`an invoice's status for a viewer, on ${testDriver}`, () => {
  it("is shown to anyone and to its payer, refused to another signed-in wallet, and unknown ids are not found", async () => {
    const { id } = await createInvoice(
      { items: createInvoiceBody.parse({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }).items, payer },
      database.db,
    );
    const anyone = await getStatus(database.db, id, null);
    expect(anyone).toMatchObject({ status: "unpaid", canSeeCodes: false, invoice: { id } });
    expect(await getStatus(database.db, id, { wallet: stranger, proven: false })).toMatchObject({ status: "unpaid" });
    expect(await getStatus(database.db, id, { wallet: payer, proven: true })).toMatchObject({ status: "unpaid", canSeeCodes: false });
    expect(await getStatus(database.db, id, { wallet: stranger, proven: true })).toBe("not_the_payer");
    expect(await getStatus(database.db, "inv_01JZZZZZZZZZZZZZZZZZZZZZZZ", null)).toBeUndefined();
  });
});

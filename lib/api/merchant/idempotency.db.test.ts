import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { idempotencyKeys } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { createMerchant } from "@/lib/merchants";
import { deleteStaleIdempotencyKeys, IDEMPOTENCY_KEY_TTL_MS } from "./idempotency";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe(`Idempotency-Keys on ${testDriver}`, () => {
  it("are deleted once older than a week, the newer ones kept", async () => {
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Keys" });
    const now = Date.now();
    const key = (name: string, age: number) => ({
      merchantId,
      key: name,
      endpoint: "POST /api/v2/invoices",
      requestHash: "h",
      responseStatus: 200,
      responseBody: {},
      createdAt: new Date(now - age),
    });
    await database.db.insert(idempotencyKeys).values([key("old", IDEMPOTENCY_KEY_TTL_MS + 1000), key("new", IDEMPOTENCY_KEY_TTL_MS - 60_000)]);
    await deleteStaleIdempotencyKeys(database.db, new Date(now));
    const left = await database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, merchantId));
    expect(left.map((r) => r.key)).toEqual(["new"]);
  });
});

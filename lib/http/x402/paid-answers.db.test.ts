import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { paidAnswers } from "@/lib/db/schema";
import { openTestDatabase, testDriver } from "@/lib/db/testing";
import { deleteStalePaidAnswers, PAID_ANSWER_TTL_MS } from "./paid-answers";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe(`kept answers of paid calls, on ${testDriver}`, () => {
  it("are deleted once older than a day, the newer ones kept", async () => {
    const now = Date.now();
    const row = (paymentId: string, age: number) => ({
      paymentId,
      requestHash: "h",
      status: 200,
      body: "{}",
      contentType: "application/json",
      createdAt: new Date(now - age),
    });
    await database.db
      .insert(paidAnswers)
      .values([row("pay_old_0000000001", PAID_ANSWER_TTL_MS + 1000), row("pay_new_0000000001", PAID_ANSWER_TTL_MS - 60_000)]);
    await deleteStalePaidAnswers(database.db, new Date(now));
    expect((await database.db.select({ id: paidAnswers.paymentId }).from(paidAnswers)).map((r) => r.id)).toEqual(["pay_new_0000000001"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { siwxNonces } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { deleteStaleNonces } from "./nonce-cleanup";

const HOUR = 60 * 60 * 1000;
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

async function seed(now: number) {
  await database.db.delete(siwxNonces);
  await database.db.insert(siwxNonces).values([
    { nonce: "stale0001", issuedAt: new Date(now - 49 * HOUR), expiresAt: new Date(now - 48 * HOUR) },
    { nonce: "stale0002", issuedAt: new Date(now - 2 * HOUR), expiresAt: new Date(now - HOUR) },
    { nonce: "recent0001", issuedAt: new Date(now - 5 * 60_000), expiresAt: new Date(now - 1_000) },
    { nonce: "live000001", issuedAt: new Date(now), expiresAt: new Date(now + HOUR) },
  ]);
}
const left = async () => (await database.db.select({ nonce: siwxNonces.nonce }).from(siwxNonces)).map((r) => r.nonce).sort();

describe(`nonce cleanup on ${testDriver}`, () => {
  it("deletes nonces whose messages can no longer pass, and keeps those that still could (a replay reads 'replayed')", async () => {
    const now = Date.now();
    await seed(now);
    await deleteStaleNonces(database.db, new Date(now));
    expect(await left()).toEqual(["live000001", "recent0001"]);
  });
});

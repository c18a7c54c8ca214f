import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { queryRows } from "@/lib/platform/db/client";
import { claimHolder, holderAlive, HOLDER_LOCK_CLASS, startPresence } from "@/lib/platform/db/presence";
import { invoices, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { createInvoice } from "@/lib/checkout";
import { claimDueOrders, drainDue, fulfilOrder, releaseDeadClaims } from "./engine";
import { createDemoProvider } from "./providers/demo";
import { item, payInvoice, TEST_PAYER } from "@/test/fulfilment";

// On PostgreSQL, which several servers share, a claim names its server's presence: an advisory lock held by a session
// of that server's own while it lives (lib/platform/db/presence.ts). A claim whose holder's session has ended is freed at start
// and by the upkeep loop (releaseDeadClaims, after a grace), where before it held its order until its lease lapsed.
// PGlite is one process's alone: its start frees every claim (releaseClaims, crash-recovery.db.test.ts).

const demo = createDemoProvider("dead claims test key");
let database: Database;
let url = "";
const sessions: pg.Client[] = [];

beforeAll(async () => {
  if (testDriver !== "postgres") return;
  database = await openTestDatabase(withTestCatalog);
  url = (database.pool as unknown as { options: { connectionString: string } }).options.connectionString;
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.end().catch(() => undefined)));
  await database?.close();
});

/** A server's presence as lib/platform/db/presence.ts holds it: a session of its own with the holder's advisory lock. */
async function holderSession(key: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  sessions.push(client);
  const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [HOLDER_LOCK_CLASS, key]);
  expect(rows[0]?.ok).toBe(true);
  return client;
}

async function paidOrder(): Promise<string> {
  const inv = await createInvoice({ items: [item("test-gift-card-code", "10")], payer: TEST_PAYER }, database.db);
  await payInvoice(database.db, inv.id);
  const [o] = await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id));
  return o!.id;
}

/** Waits until the holder's session is gone on the server (the backend of a closed session ends a moment later). */
async function untilGone(holder: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const [row] = await queryRows<{ alive: boolean }>(database.db, sql`SELECT ${holderAlive(sql`${holder}::int`)} AS alive`);
        return row?.alive;
      },
      { timeout: 10_000 },
    )
    .toBe(false);
}

// PostgreSQL only: claim holders are sessions of a shared server; on PGlite one process holds the database, and its
// start frees every claim instead (crash-recovery.db.test.ts runs there).
describe.skipIf(testDriver !== "postgres")("claims of a server that ended (PostgreSQL)", () => {
  it("frees the claims whose holder's session ended, never a live holder's nor one without a holder", async () => {
    const dead = await holderSession(111_001);
    await holderSession(111_002);
    const [ofDead, ofLive, ofNone] = [await paidOrder(), await paidOrder(), await paidOrder()];
    const [claimed] = await claimDueOrders(database.db, { limit: 1, holder: 111_001 });
    expect(claimed?.id).toBe(ofDead);
    expect((await claimDueOrders(database.db, { limit: 1, holder: 111_002 }))[0]?.id).toBe(ofLive);
    expect((await claimDueOrders(database.db, { limit: 1, holder: null }))[0]?.id).toBe(ofNone);
    const held = await database.db.select({ id: orders.id, lockedBy: orders.lockedBy }).from(orders);
    expect(Object.fromEntries(held.map((o) => [o.id, o.lockedBy]))).toEqual({ [ofDead]: 111_001, [ofLive]: 111_002, [ofNone]: null });

    // Every holder lives: nothing is freed, and no other worker may take the orders.
    expect(await releaseDeadClaims(database.db)).toEqual([]);
    expect(await drainDue(database.db, { provider: demo, holder: 111_003 })).toMatchObject({ claimed: 0 });

    // The first server ends (its process killed: PostgreSQL ends its session, and the lock goes with it).
    await dead.end();
    await untilGone(111_001);
    // Nothing is freed so soon after the database server started (every presence may be opening its session again)…
    expect(await releaseDeadClaims(database.db, { restartGraceMs: 1e12 })).toEqual([]);
    // …and the upkeep frees a claim only once its holder has looked gone for the grace (a cut session comes back).
    const seen = Date.now();
    expect(await releaseDeadClaims(database.db, { graceMs: 5_000, restartGraceMs: 0, now: new Date(seen) })).toEqual([]);
    expect(await releaseDeadClaims(database.db, { graceMs: 5_000, restartGraceMs: 0, now: new Date(seen + 4_000) })).toEqual([]);
    expect(await releaseDeadClaims(database.db, { graceMs: 5_000, restartGraceMs: 0, now: new Date(seen + 5_000) })).toEqual([ofDead]);
    // Its order is delivered at once by another server, under a claim of its own (attempts 2)…
    expect(await drainDue(database.db, { provider: demo, holder: 111_003 })).toMatchObject({ claimed: 1, delivered: 1 });
    const [done] = await database.db.select().from(orders).where(eq(orders.id, ofDead));
    expect(done).toMatchObject({ status: "delivered", attempts: 2, lockedUntil: null, lockedBy: null });
    expect((await database.db.select().from(invoices).where(eq(invoices.id, done!.invoiceId)))[0]?.status).toBe("complete");
    // …and the first claim, were its worker still to answer, writes nothing: the order's outcome is the second claim's.
    expect(await fulfilOrder(database.db, claimed!, demo)).toBe("lost");

    // The others stay held until their lease lapses.
    const still = await database.db.select({ id: orders.id, status: orders.status, lockedBy: orders.lockedBy }).from(orders);
    expect(
      still
        .filter((o) => o.status === "processing")
        .map((o) => o.id)
        .sort(),
    ).toEqual([ofLive, ofNone].sort());
    expect(await releaseDeadClaims(database.db)).toEqual([]);
  });

  it("names this process's presence in its claims, and keeps its key when its session is opened again", async () => {
    expect(claimHolder()).toBeNull();
    const presence = await startPresence(url);
    try {
      const key = presence.key;
      expect(claimHolder()).toBe(key);
      const order = await paidOrder();
      expect((await claimDueOrders(database.db, { limit: 1 })).map((o) => o.id)).toEqual([order]);
      expect((await database.db.select({ lockedBy: orders.lockedBy }).from(orders).where(eq(orders.id, order)))[0]?.lockedBy).toBe(key);
      expect(await releaseDeadClaims(database.db)).toEqual([]);

      // Its session is cut (the server restarted it, a network fault): no new claim names it until it is back, under the
      // same key, which still holds the claims it made.
      const admin = await holderSession(111_004);
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'storefront presence' AND datname = current_database()",
      );
      await expect.poll(() => claimHolder(), { timeout: 5_000 }).toBeNull();
      await expect.poll(() => claimHolder(), { timeout: 10_000 }).toBe(key);
      expect(await releaseDeadClaims(database.db)).toEqual([]);
    } finally {
      await presence.stop();
    }
    expect(claimHolder()).toBeNull();
  });
});

import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import type { Wallet } from "@/lib/identity";
import { createInvoice } from "@/lib/checkout";
import { createDemoProvider } from "./providers/demo";
import { fakePayout, payInvoice, TEST_PAYMENT } from "@/test/fulfilment";
import { kickWorker, startWorker } from "./worker";

let database: Database;
const payer: Wallet = { chainId: "eip155:84530402", address: TEST_PAYMENT.payer };
const demo = createDemoProvider("worker test key");

beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
});
afterAll(() => database?.close());

async function until<T>(probe: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`fulfilment worker on ${testDriver}`, () => {
  it("fulfils a paid invoice when kicked, then refunds its failed order", async () => {
    const { payout, calls } = fakePayout();
    // A long interval: only the kick can make this pass happen within the test.
    const worker = startWorker(async () => database.db, { intervalMs: 60_000, provider: demo, payout });
    try {
      await new Promise((r) => setTimeout(r, 100)); // the start-up pass finds nothing
      const inv = await createInvoice(
        {
          items: [
            { product_id: "test-gift-card-code", package_value: "10" },
            { product_id: "test-gift-card-code-fail", package_value: "20" },
          ],
          payer,
        },
        database.db,
      );
      await payInvoice(database.db, inv.id);
      kickWorker();
      const rows = await until(async () => {
        const rows = await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id)).orderBy(asc(orders.position));
        return rows[1]?.status === "refunded" && rows;
      });
      expect(rows.map((o) => o.status)).toEqual(["delivered", "refunded"]);
      expect(calls.map((c) => c.amount)).toEqual([20_000_000n]);
      const [row] = await database.db.select().from(invoices).where(eq(invoices.id, inv.id));
      expect(row).toMatchObject({ status: "complete", errorCode: "PARTIAL_FULFILMENT" });
    } finally {
      await worker.stop();
    }
  });

  it("logs a failing pass and carries on with the next one", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const getDb = async (): Promise<Db> => {
      calls++;
      if (calls === 1) throw new Error("database not ready");
      return database.db;
    };
    const worker = startWorker(getDb, { intervalMs: 10, provider: demo, onError: (err) => errors.push(err) });
    try {
      await until(async () => calls >= 3);
      expect(errors).toHaveLength(1);
      expect((errors[0] as Error).message).toBe("database not ready");
    } finally {
      await worker.stop();
    }
    // Stopped means stopped: no further pass runs.
    const after = calls;
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(after);
  });

  it("idle, looks less and less often, up to idleMaxMs, and still fulfils an order paid meanwhile", async () => {
    let passes = 0;
    const worker = startWorker(
      async () => {
        passes++;
        return database.db;
      },
      { intervalMs: 20, idleMaxMs: 160, provider: demo },
    );
    try {
      // Passes at 0, 40, 120, 280, 440, 600 ms (pauses of 40, 80, 160, 160…): about 6, where 20 ms apart would be 30.
      await new Promise((r) => setTimeout(r, 600));
      expect(passes).toBeGreaterThanOrEqual(2);
      expect(passes).toBeLessThanOrEqual(8);
      const inv = await createInvoice({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], payer }, database.db);
      await payInvoice(database.db, inv.id);
      kickWorker();
      await until(async () => {
        const [row] = await database.db.select().from(orders).where(eq(orders.invoiceId, inv.id));
        return row?.status === "delivered";
      });
    } finally {
      await worker.stop();
    }
  });

  it("never runs two passes at once, however often it is kicked", async () => {
    let active = 0;
    let most = 0;
    let passes = 0;
    const getDb = async (): Promise<Db> => {
      passes++;
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 30));
      active--;
      // Ends the pass early: only the overlap is measured.
      throw new Error("pass over");
    };
    const worker = startWorker(getDb, { intervalMs: 5, onError: () => {} });
    try {
      for (let i = 0; i < 20; i++) {
        worker.kick();
        await new Promise((r) => setTimeout(r, 3));
      }
      await until(async () => passes >= 3);
    } finally {
      await worker.stop();
    }
    expect(most).toBe(1);
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/platform/db/client";
import { invoices, orders } from "@/lib/platform/db/schema";
import { testDriver, openTestDataDir, withTestCatalog } from "@/test/db";
import { createInvoice } from "@/lib/checkout";
import { drainDue, releaseClaims } from "./engine";
import { createDemoProvider } from "./providers/demo";
import { payInvoice, TEST_PAYMENT } from "@/test/fulfilment";

let dataDir = "";
const open = () => openDatabase({ driver: "pglite", dataDir, role: "crash-test" });
let database: Database | undefined;

afterAll(async () => {
  await database?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the crash worker until it is inside a delivery, then kills it with SIGKILL; returns the order it held. */
async function killWorkerMidDelivery(): Promise<string> {
  // tsx as a loader of this very process (its CLI would run the script in a grandchild that SIGKILL would miss).
  const child = spawn(process.execPath, ["--import", "tsx", path.join("test", "fixtures", "crash-worker.fixture.ts"), dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((r) => child.on("exit", r));
  try {
    return await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /delivering (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`the worker exited (${code}) before delivering`)));
      setTimeout(() => reject(new Error("the worker did not start delivering within 60 s")), 60_000).unref();
    });
  } finally {
    // The crash itself, or the clean-up of a worker that never got that far.
    child.kill("SIGKILL");
    await exited;
  }
}

// PGlite on disk only: whether the embedded database keeps a killed process's claim is what is in question here. The
// simulated crash in engine.db.test.ts runs on both databases.
describe.skipIf(testDriver === "postgres")("crash recovery (kill -9)", () => {
  it("finishes a paid invoice whose worker was killed between payment and delivery", { timeout: 120_000 }, async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fulfilment-crash-"));
    // A copy of the run's migrated database with the catalog, in the folder a server opens.
    database = await openTestDataDir(dataDir, "crash-test", withTestCatalog);
    const inv = await createInvoice(
      { items: [{ product_id: "test-gift-card-code", package_value: "10" }], payer: { chainId: TEST_PAYMENT.network, address: TEST_PAYMENT.payer } },
      database.db,
    );
    await payInvoice(database.db, inv.id);
    await database.close();
    database = undefined;

    const held = await killWorkerMidDelivery();

    // The next start: the killed process's lock on the data folder is taken over, its claim is still there.
    database = await open();
    const [order] = await database.db.select().from(orders).where(eq(orders.id, held));
    expect(order).toMatchObject({ invoiceId: inv.id, status: "processing", attempts: 1, redemption: null });
    expect((await database.db.select().from(invoices).where(eq(invoices.id, inv.id)))[0]?.status).toBe("fulfilling");

    // Held until its claim lapses…
    const provider = createDemoProvider("crash test key");
    expect(await drainDue(database.db, { provider })).toMatchObject({ claimed: 0 });
    // …unless the server that opens the embedded database frees the claims it finds there (lib/server/start.ts): no
    // other process can hold one. Then it is delivered at once.
    expect(await releaseClaims(database.db)).toEqual([held]);
    expect(await drainDue(database.db, { provider })).toMatchObject({ claimed: 1, delivered: 1 });
    const [done] = await database.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(done).toMatchObject({ status: "complete", deliveryStatus: "all_delivered" });
  });
});

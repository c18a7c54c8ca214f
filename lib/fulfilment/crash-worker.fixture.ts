// A worker process for the kill -9 test (crash-recovery.db.test.ts): it opens the embedded database in DATA folder
// argv[2], claims the due orders and starts delivering them, prints "delivering <order id>" and then hangs inside
// the provider call until it is killed: the crash falls between payment and delivery.
import "@/lib/wiring";
import { openDatabase } from "@/lib/db/client";
import { drainDue } from "./engine";

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: crash-worker.fixture.ts DATA_DIR");
  const database = await openDatabase({ driver: "pglite", dataDir, role: "crash-test-worker" });
  await drainDue(database.db, {
    lockMs: 60_000,
    provider: {
      deliver(order) {
        process.stdout.write(`delivering ${order.id}\n`);
        return new Promise(() => {});
      },
    },
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

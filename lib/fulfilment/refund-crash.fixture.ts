// A refund worker for the kill -9 test (refund-crash.db.test.ts): it opens the embedded database in DATA folder
// argv[2], pays the refund of invoice argv[4] from the devnet at argv[3] (npm run devnet), prints "sent <transaction>"
// once the transfer is on its way to the chain, and then hangs until it is killed: the crash falls between the
// transfer and its record.
import "@/lib/wiring";
import { openDatabase } from "@/lib/db/client";
import { connectDevnet } from "@/lib/devnet/shared";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { devnetPayout } from "./devnet-payout";
import { refundFailedOrders } from "./refund";

async function main() {
  const [dataDir, devnetUrl, invoiceId] = process.argv.slice(2);
  if (!dataDir || !devnetUrl || !invoiceId) throw new Error("usage: refund-crash.fixture.ts DATA_DIR DEVNET_URL INVOICE_ID");
  const database = await openDatabase({ driver: "pglite", dataDir, role: "refund-crash-worker" });
  const payout = devnetPayout(
    await connectDevnet(devnetUrl),
    databaseSenderSync(async () => database),
  );
  await refundFailedOrders(database.db, invoiceId, {
    ...payout,
    async send(network, p) {
      await payout.send(network, p);
      process.stdout.write(`sent ${p.transaction}\n`);
      await new Promise(() => {});
    },
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { getDevnet } from "@/lib/devnet";
import { startWorker } from "@/lib/fulfilment";
import { devnetPayout } from "@/lib/fulfilment/devnet-payout";
import { expireInvoices, reconcilePendingPayments } from "@/lib/invoices";
import { checkTransaction } from "@/lib/payments/check-transaction";
import { getPayments } from "@/lib/payments/payments";
import { onShutdown } from "./shutdown";

const MAINTENANCE_MS = 10_000;

/**
 * The background work of a Node server: the fulfilment worker (orders of paid invoices, refunds of failed ones)
 * and invoice upkeep (expire unpaid invoices, settle the fate of payments whose settlement timed out).
 */
export async function startBackgroundWork(): Promise<void> {
  const c = config();
  // On the devnet refunds are real USDC transfers back to the payer; elsewhere they wait for the operator.
  const payout = c.networkMode === "devnet" ? devnetPayout(await getDevnet()) : undefined;
  const worker = startWorker(getDb, { payout });

  const { networks } = await getPayments();
  const check = async (network: string, tx: string) => {
    const n = networks.find((x) => x.network === network);
    return n ? checkTransaction(n, tx) : "unknown";
  };
  let busy = false;
  const upkeep = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      const db = await getDb();
      await expireInvoices(db);
      const { paid } = await reconcilePendingPayments(db, check);
      if (paid > 0) worker.kick();
    })()
      .catch((err: unknown) => console.error("[invoices] upkeep failed", err))
      .finally(() => {
        busy = false;
      });
  }, MAINTENANCE_MS);
  upkeep.unref();

  onShutdown(async () => {
    clearInterval(upkeep);
    await worker.stop();
  });
}

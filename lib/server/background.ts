import { privateKeyToAccount } from "viem/accounts";
import { config, ConfigError, type Config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { getDevnet } from "@/lib/devnet";
import { startWorker, type Payout } from "@/lib/fulfilment";
import { chainPayout } from "@/lib/fulfilment/chain-payout";
import { devnetPayout } from "@/lib/fulfilment/devnet-payout";
import { settlementEffects } from "@/lib/http/settlement-effects";
import { expireInvoices } from "@/lib/invoices";
import { drainSettlements } from "@/lib/payments/in-flight";
import { reconcileSettlements } from "@/lib/payments/settlements";
import { chainVerdict } from "@/lib/payments/verdict";
import { solanaSignerFromSecret } from "@/lib/payments/facilitator";
import { publicNetworks } from "@/lib/payments/networks";
import { getPayments, senderSync } from "@/lib/payments/payments";
import { startWebhookWorker } from "@/lib/webhooks";
import { onShutdown } from "./shutdown";

const MAINTENANCE_MS = 10_000;

/**
 * The background work of a Node server: the fulfilment worker (orders of paid invoices, refunds of failed ones),
 * the webhook worker (merchants' invoice messages, with retries) and payment upkeep (expire unpaid invoices, decide
 * every open settlement from the chain: invoices', fees' and balance top-ups').
 */
export async function startBackgroundWork(): Promise<void> {
  const c = config();
  const worker = startWorker(getDb, { payout: await refundPayout(c) });
  const webhooks = startWebhookWorker(getDb, { mode: c.networkMode, retryBaseSeconds: c.webhookRetryBaseSeconds });

  const { networks } = await getPayments();
  let busy = false;
  const upkeep = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      const db = await getDb();
      await expireInvoices(db);
      // Payments whose settlement was sent but not confirmed, or whose server died settling them.
      const { settled } = await reconcileSettlements(db, (s) => chainVerdict(networks, s), settlementEffects);
      if (settled > 0) worker.kick();
    })()
      .catch((err: unknown) => console.error("[invoices] upkeep failed", err))
      .finally(() => {
        busy = false;
      });
  }, MAINTENANCE_MS);
  upkeep.unref();

  // New payments stop first and those in flight reach a recorded outcome; then the workers; the database last.
  onShutdown(async () => {
    const { unfinished } = await drainSettlements(20_000);
    if (unfinished > 0) console.error(`[payments] ${unfinished} settlement(s) still running at shutdown: the next start reconciles them`);
  }, "intake");
  onShutdown(async () => {
    clearInterval(upkeep);
    await Promise.all([worker.stop(), webhooks.stop()]);
  }, "work");
}

/**
 * How failed orders are paid back: on the devnet from the payTo wallet; on testnet/mainnet from the refund wallets
 * that are configured (a refund on a chain family without one stays due, with the reason); without any, not at all:
 * refunds wait for the operator (`npm run admin -- refunds list`).
 */
async function refundPayout(c: Config): Promise<Payout | undefined> {
  if (c.networkMode === "devnet") return devnetPayout(await getDevnet(), senderSync);
  const evmKey = c.refundEvmPrivateKey ? privateKeyToAccount(c.refundEvmPrivateKey) : undefined;
  const solanaKey = c.refundSolanaPrivateKey
    ? await solanaSignerFromSecret(c.refundSolanaPrivateKey).catch(() => {
        throw new ConfigError([{ variable: "REFUND_SOLANA_PRIVATE_KEY", message: "is not a Solana key pair (64 bytes: secret and public key)" }]);
      })
    : undefined;
  if (!evmKey && !solanaKey) {
    console.log("[refunds] no refund key is set: refunds wait for the operator (npm run admin -- refunds list)");
    return undefined;
  }
  console.log(`[refunds] paid automatically from ${[evmKey && `${evmKey.address} (EVM)`, solanaKey && `${solanaKey.address} (Solana)`].filter(Boolean).join(" and ")}`);
  return chainPayout({ networks: publicNetworks(c), evmKey, solanaKey, sync: senderSync });
}

import { privateKeyToAccount } from "viem/accounts";
import { config, ConfigError, type Config } from "@/lib/platform/config";
import { getDb } from "@/lib/platform/db";
import { getDevnet } from "@/lib/devnet";
import { drainDue, refundDue, payAddressRefunds, type Payout, chainPayout, devnetPayout } from "@/lib/fulfilment";
import { deleteStaleIdempotencyKeys } from "@/lib/api/merchant";
import { deleteStalePaidAnswers } from "@/lib/api/x402";
import { settlementEffects, expireInvoices } from "@/lib/checkout";
import { deleteStaleNonces } from "@/lib/identity";
import { refreshCoinPricesIfDue, refreshFxRatesIfDue } from "@/lib/catalog";
import { issueDueBatches } from "@/lib/merchants";
import { solanaSignerFromSecret, getPayments, senderSync, deleteStaleSettlements, reconcileSettlements, chainVerdict } from "@/lib/payments";
import { publicAddressNetworks, publicNetworks } from "@/lib/platform/networks";
import { drainWebhooks } from "@/lib/webhooks";
import { syncUpstreamIfDue, upstreamProvider, type SyncReport } from "@/lib/supply";
import { log } from "@/lib/platform/log";
import { watchPaymentAddresses } from "./address-watch";
import { errorText } from "@/lib/platform/errors";

/** What one round of the background work did (GET /api/cron/tick answers it). */
export type RoundReport = {
  expired_invoices: number;
  settlements: { settled: number; failed: number; open: number };
  orders: { claimed: number; delivered: number; failed: number; retry: number; lost: number };
  refunds: number;
  /** Invoice addresses whose counted payments grew this round (lib/server/address-watch.ts). */
  address_payments: number;
  webhooks: { claimed: number; delivered: number; retry: number; failed: number; gone: number };
  /** The upstream supplier's catalog sync (UPSTREAM_API_URL), when one is configured: what this round's share did. */
  upstream_sync?: SyncReport["status"];
  /** Jobs that failed this round, by name, with the reason; the next round tries them again. */
  errors: Record<string, string>;
  took_ms: number;
};

/**
 * Upkeep: unpaid invoices past their time expire (their stock is released), every open settlement is decided from
 * the chain (landed: applied once; never landing: undone); gift card batches left unfinished are issued; live exchange rates are read when an hour old; sign-in nonces that can no longer pass, kept answers of paid
 * calls past their day, Idempotency-Keys past their week and settlements that can no longer matter are deleted.
 * The server's upkeep loop and the cron round both run it.
 */
export async function upkeep(): Promise<{ expired: number; settlements: RoundReport["settlements"] }> {
  const db = await getDb();
  const { networks } = await getPayments();
  const expired = await expireInvoices(db);
  const settlements = await reconcileSettlements(db, (s) => chainVerdict(networks, s), settlementEffects);
  // Gift card batches whose issuing a request left unfinished (it died, or the database failed it): issued now.
  await issueDueBatches(db);
  // Live exchange rates (FX_RATES_URL), hourly; a feed that fails is logged, and the rates stored before stay.
  await refreshFxRatesIfDue(db);
  // The ether price (ETH_USD_PRICE_URL), every minute; likewise kept when the feed fails.
  await refreshCoinPricesIfDue(db);
  // Last: housekeeping never holds up the money work above.
  await deleteStaleNonces(db);
  await deleteStalePaidAnswers(db);
  await deleteStaleIdempotencyKeys(db);
  await deleteStaleSettlements(db);
  return { expired, settlements };
}

let payout: Promise<Payout | undefined> | undefined;

/** The process's refund payout (see refundPayout), made once. */
export function processPayout(): Promise<Payout | undefined> {
  payout ??= refundPayout(config());
  return payout;
}

/**
 * One bounded round of every background job, in the order money flows: payment upkeep (expiry, settlements), paid
 * orders fulfilled, failed ones refunded, merchants' webhooks sent; then the upstream supplier's catalog sync. Each job stops taking new work when `budgetMs`
 * is spent (what it holds is finished or left claimed for the next round), and a failing job does not stop the
 * others. This is what Vercel Cron calls (GET /api/cron/tick) and what runs after a payment on Vercel; a Node server
 * runs the same jobs in its loops (lib/server/background.ts).
 */
export async function runRound({ budgetMs = 50_000 }: { budgetMs?: number } = {}): Promise<RoundReport> {
  const started = Date.now();
  const signal = AbortSignal.timeout(budgetMs);
  const report: RoundReport = {
    expired_invoices: 0,
    settlements: { settled: 0, failed: 0, open: 0 },
    orders: { claimed: 0, delivered: 0, failed: 0, retry: 0, lost: 0 },
    refunds: 0,
    address_payments: 0,
    webhooks: { claimed: 0, delivered: 0, retry: 0, failed: 0, gone: 0 },
    errors: {},
    took_ms: 0,
  };
  const job = async (name: string, work: () => Promise<void>) => {
    if (signal.aborted) return;
    try {
      await work();
    } catch (err) {
      report.errors[name] = errorText(err);
      log.error({ err, job: name }, "a job of the round failed");
    }
  };
  const db = await getDb();
  await job("payments", async () => {
    const { expired, settlements } = await upkeep();
    report.expired_invoices = expired;
    report.settlements = settlements;
  });
  await job("addresses", async () => {
    report.address_payments = (await watchPaymentAddresses()).reduce((sum, r) => sum + r.received, 0);
  });
  await job("fulfilment", async () => {
    const { claimed, delivered, failed, retry, lost } = await drainDue(db, { signal, upstream: upstreamProvider });
    report.orders = { claimed, delivered, failed, retry, lost };
  });
  await job("refunds", async () => {
    const p = await processPayout();
    if (p) report.refunds = (await refundDue(db, p)).length;
  });
  // Apart: an order refund that keeps failing must not hold back what shoppers' payment addresses are owed.
  await job("address refunds", async () => {
    const p = await processPayout();
    if (p) report.refunds += (await payAddressRefunds(db, p)).length;
  });
  await job("webhooks", async () => {
    report.webhooks = await drainWebhooks(db, { signal });
  });
  // Last: the catalog is not money. A page budget per round, resumed where it stopped (lib/supply).
  await job("upstream sync", async () => {
    const sync = await syncUpstreamIfDue(db);
    if (sync) report.upstream_sync = sync.status;
  });
  report.took_ms = Date.now() - started;
  return report;
}

/**
 * How failed orders are paid back: on the devnet from the payTo wallet; on testnet/mainnet from the refund wallets
 * that are configured (a refund on a chain family without one stays due, with the reason); without any, not at all:
 * refunds wait for the operator (`npm run admin -- refunds list`).
 */
export async function refundPayout(c: Config): Promise<Payout | undefined> {
  if (c.networkMode === "devnet") return devnetPayout(await getDevnet(), senderSync);
  const evmKey = c.refundEvmPrivateKey ? privateKeyToAccount(c.refundEvmPrivateKey) : undefined;
  const solanaKey = c.refundSolanaPrivateKey
    ? await solanaSignerFromSecret(c.refundSolanaPrivateKey).catch(() => {
        throw new ConfigError([{ variable: "REFUND_SOLANA_PRIVATE_KEY", message: "is not a Solana key pair (64 bytes: secret and public key)" }]);
      })
    : undefined;
  if (!evmKey && !solanaKey) {
    log.info("no refund key is set: refunds wait for the operator (npm run admin -- refunds list)");
    return undefined;
  }
  log.info({ evm: evmKey?.address, solana: solanaKey?.address }, "refunds are paid automatically");
  return chainPayout({ networks: [...publicNetworks(c), ...publicAddressNetworks(c)], evmKey, solanaKey, sync: senderSync });
}

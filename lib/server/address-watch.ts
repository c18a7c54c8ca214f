import type { PublicClient } from "viem";
import { getDb } from "@/lib/platform/db";
import { addressPaymentEffect } from "@/lib/checkout";
import { getPayments, readClient, watchAddresses, watchSolanaReferences, type WatchReport } from "@/lib/payments";
import type { EvmNetwork, SolanaNetwork } from "@/lib/platform/networks";
import { log } from "@/lib/platform/log";

const globalForClients = globalThis as typeof globalThis & { __storefrontWatchClients?: Map<string, PublicClient> };
const clients = (globalForClients.__storefrontWatchClients ??= new Map<string, PublicClient>());

function clientOf(n: EvmNetwork): PublicClient {
  const key = `${n.network} ${n.rpcUrl}`;
  let c = clients.get(key);
  if (!c) clients.set(key, (c = readClient(n)));
  return c;
}

/**
 * One round of every network's address watcher, the networks side by side: on EVM networks
 * (lib/payments/address-watch.ts) the invoices paid by a plain transfer to their own address, what else arrived there
 * credited, and what is decided flushed to payTo; on Solana (lib/payments/solana-pay.ts) the transfers to the shop's
 * token account that carry an invoice's reference (those its own fee payers paid for are x402 settlements, counted as
 * such). A network whose node fails is logged and tried again next round; the others go on.
 */
export async function watchPaymentAddresses(): Promise<WatchReport[]> {
  const db = await getDb();
  const payments = await getPayments();
  const failed = (n: { network: string }) => (err: unknown) => {
    log.warn({ err, network: n.network }, "the payment addresses of a network could not be read: tried again next round");
    return undefined;
  };
  const solana = payments.networks.filter((n): n is SolanaNetwork => n.kind === "solana");
  const reports = await Promise.all([
    ...payments.addressNetworks.map(async (n) => {
      const send = payments.gasSender(n);
      if (!send) return undefined;
      return watchAddresses(db, n, { client: clientOf(n), effect: addressPaymentEffect, send }).catch(failed(n));
    }),
    // (Without the x402 fee payers' list, no Solana round: it could take an x402 settlement for a Solana Pay transfer.)
    ...solana.map((n) =>
      payments
        .solanaSigners()
        .then((signers) => watchSolanaReferences(db, n, { effect: addressPaymentEffect, feePayers: new Set(signers) }))
        .catch(failed(n)),
    ),
  ]);
  return reports.filter((r): r is WatchReport => r !== undefined);
}

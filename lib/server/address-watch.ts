import type { PublicClient } from "viem";
import { getDb } from "@/lib/platform/db";
import { addressPaymentEffect } from "@/lib/checkout";
import { getPayments, readClient, watchAddresses, type WatchReport } from "@/lib/payments";
import type { EvmNetwork } from "@/lib/platform/networks";
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
 * One round of every EVM network's address watcher (lib/payments/address-watch.ts), the networks side by side: the
 * invoices paid by a plain transfer to their own address, what else arrived there credited, and what is decided
 * flushed to payTo. A network whose node fails is logged and tried again next round; the others go on.
 */
export async function watchPaymentAddresses(): Promise<WatchReport[]> {
  const db = await getDb();
  const payments = await getPayments();
  const reports = await Promise.all(
    payments.addressNetworks.map(async (n) => {
      const send = payments.gasSender(n);
      if (!send) return undefined;
      try {
        return await watchAddresses(db, n, { client: clientOf(n), effect: addressPaymentEffect, send });
      } catch (err) {
        log.warn({ err, network: n.network }, "the payment addresses of a network could not be read: tried again next round");
        return undefined;
      }
    }),
  );
  return reports.filter((r): r is WatchReport => r !== undefined);
}

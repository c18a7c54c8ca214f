import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { invoices, orders } from "@/lib/platform/db/schema";
import type { Redemption } from "@/lib/fulfilment";

export type WalletEsimBundle = {
  orderId: string;
  value: string;
  dataMb: number | null;
  validityDays: number | null;
  activatedAt: Date | null;
  expiresAt: Date | null;
};

export type WalletEsim = {
  iccid: string;
  productId: string;
  productName: string;
  /** The order that issued the profile, and its invoice. */
  orderId: string;
  invoiceId: string;
  lpa: string;
  /** The bundle it came with, then every top-up, oldest first. */
  bundles: WalletEsimBundle[];
};

const DAY_MS = 86_400_000;

/**
 * The eSIMs a wallet bought (delivered eSIM orders), newest first, each with every bundle it holds: the one it came
 * with and those added later by top-up orders naming its ICCID.
 */
export async function listWalletEsims(db: Db, payerKey: string, only?: { iccid: string }): Promise<WalletEsim[]> {
  const rows = await db
    .select({ order: orders, invoiceId: invoices.id })
    .from(orders)
    .innerJoin(invoices, eq(orders.invoiceId, invoices.id))
    .where(
      and(
        eq(invoices.payer, payerKey),
        eq(orders.productKind, "esim"),
        eq(orders.status, "delivered"),
        // One eSIM: the order that issued it and its top-ups all name its ICCID.
        only ? sql`${orders.redemption} -> 'esim' ->> 'iccid' = ${only.iccid}` : undefined,
      ),
    )
    .orderBy(asc(orders.deliveredAt), asc(orders.id));

  const byIccid = new Map<string, WalletEsim>();
  const topups: { iccid: string; bundle: WalletEsimBundle }[] = [];
  for (const { order, invoiceId } of rows) {
    const esim = (order.redemption as Redemption | null)?.esim;
    if (!esim) continue;
    const validity = esim.bundle.validity_days;
    const bundle: WalletEsimBundle = {
      orderId: order.id,
      value: esim.bundle.value,
      dataMb: esim.bundle.data_mb,
      validityDays: validity,
      activatedAt: order.deliveredAt,
      expiresAt: order.deliveredAt && validity ? new Date(order.deliveredAt.getTime() + validity * DAY_MS) : null,
    };
    if ("topup" in esim) topups.push({ iccid: esim.iccid, bundle });
    else
      byIccid.set(esim.iccid, {
        iccid: esim.iccid,
        productId: order.productId,
        productName: order.productName,
        orderId: order.id,
        invoiceId,
        lpa: esim.lpa,
        bundles: [bundle],
      });
  }
  for (const t of topups) byIccid.get(t.iccid)?.bundles.push(t.bundle);
  return [...byIccid.values()].reverse();
}

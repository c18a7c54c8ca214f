import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { invoices, orders } from "@/lib/db/schema";

type EsimRedemption = {
  esim?: { iccid: string; lpa: string; bundle: { value: string; data_mb: number | null; validity_days: number | null } };
};

export type WalletEsim = {
  iccid: string;
  productId: string;
  productName: string;
  orderId: string;
  invoiceId: string;
  lpa: string;
  bundle: { value: string; dataMb: number | null; validityDays: number | null; activatedAt: Date | null; expiresAt: Date | null };
};

/** The eSIMs a wallet bought (delivered eSIM orders), newest first, each with the bundle it came with. */
export async function listWalletEsims(db: Db, payerKey: string): Promise<WalletEsim[]> {
  const rows = await db
    .select({ order: orders, invoiceId: invoices.id })
    .from(orders)
    .innerJoin(invoices, eq(orders.invoiceId, invoices.id))
    .where(and(eq(invoices.payer, payerKey), eq(orders.productKind, "esim"), eq(orders.status, "delivered")))
    .orderBy(desc(orders.deliveredAt));
  return rows.flatMap(({ order, invoiceId }) => {
    const esim = (order.redemption as EsimRedemption | null)?.esim;
    if (!esim) return [];
    const validity = esim.bundle.validity_days;
    return [
      {
        iccid: esim.iccid,
        productId: order.productId,
        productName: order.productName,
        orderId: order.id,
        invoiceId,
        lpa: esim.lpa,
        bundle: {
          value: esim.bundle.value,
          dataMb: esim.bundle.data_mb,
          validityDays: validity,
          activatedAt: order.deliveredAt,
          expiresAt: order.deliveredAt && validity ? new Date(order.deliveredAt.getTime() + validity * 86_400_000) : null,
        },
      },
    ];
  });
}

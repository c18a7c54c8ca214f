import { heldCoinPrices, heldFxRates, type HeldCoinPrice, type HeldFxRates } from "@/lib/catalog";
import { getDb } from "@/lib/platform/db";
import { listRefundsDue, type RefundDue } from "@/lib/fulfilment";
import { upstreamHeldOrders, type HeldPurchase } from "@/lib/supply";
import { recentReadiness, type Readiness } from "./health";

/**
 * What the operator's page shows (/operator): the readiness checks with the gas wallets and the upstream supplier's
 * balance and sync, the orders held for the upstream balance, the refunds due, and exchange rates held for moving a
 * currency too far (FX_MAX_MOVE_PERCENT), to confirm.
 */
export type OperatorOverview = { readiness: Readiness; held: HeldPurchase[]; refundsDue: RefundDue[]; heldRates: HeldFxRates[]; heldPrices: HeldCoinPrice[] };

export async function operatorOverview(): Promise<OperatorOverview> {
  const db = await getDb();
  const [ready, held, refundsDue, heldRates, heldPrices] = await Promise.all([
    recentReadiness(),
    upstreamHeldOrders(db),
    listRefundsDue(db),
    heldFxRates(db),
    heldCoinPrices(db),
  ]);
  return { readiness: ready, held, refundsDue, heldRates, heldPrices };
}

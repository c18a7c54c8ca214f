import { getDb } from "@/lib/db";
import { listRefundsDue, type RefundDue } from "@/lib/fulfilment/refunds-due";
import { upstreamHeldOrders, type HeldPurchase } from "@/lib/supply";
import { recentReadiness, type Readiness } from "./health";

/**
 * What the operator's page shows (/operator): the readiness checks with the gas wallets and the upstream supplier's
 * balance and sync, the orders held for the upstream balance, and the refunds due.
 */
export type OperatorOverview = { readiness: Readiness; held: HeldPurchase[]; refundsDue: RefundDue[] };

export async function operatorOverview(): Promise<OperatorOverview> {
  const db = await getDb();
  const [ready, held, refundsDue] = await Promise.all([recentReadiness(), upstreamHeldOrders(db), listRefundsDue(db)]);
  return { readiness: ready, held, refundsDue };
}

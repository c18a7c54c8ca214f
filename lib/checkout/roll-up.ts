import type { invoices, orders } from "@/lib/platform/db/schema";
import type { DeliveryStatus, InvoiceErrorCode } from "@/lib/api/x402";

export type OrderStatus = (typeof orders.$inferSelect)["status"];

export type RollUp = {
  /** Only the statuses fulfilment moves a paid invoice through. */
  status: Extract<(typeof invoices.$inferSelect)["status"], "paid" | "fulfilling" | "complete">;
  deliveryStatus: DeliveryStatus;
  errorCode: InvoiceErrorCode | null;
};

const FINAL: ReadonlySet<OrderStatus> = new Set(["delivered", "failed", "refunded"]);

/**
 * A paid invoice's status from its orders. Complete once every order is final, whatever the outcome: failed orders
 * are refunded, not retried forever, so a paid invoice always ends. A refunded order counts as failed (it was not
 * delivered). Monotone: orders never go back to `created` once claimed, so neither does the invoice go back to `paid`.
 */
export function rollUp(orders: readonly { status: OrderStatus }[]): RollUp {
  // No orders: nothing has happened (an invoice always has at least one; this keeps the function total).
  if (orders.length === 0 || orders.every((o) => o.status === "created")) return { status: "paid", deliveryStatus: "pending", errorCode: null };
  if (!orders.every((o) => FINAL.has(o.status))) return { status: "fulfilling", deliveryStatus: "delivering", errorCode: null };
  const delivered = orders.filter((o) => o.status === "delivered").length;
  if (delivered === orders.length) return { status: "complete", deliveryStatus: "all_delivered", errorCode: null };
  if (delivered === 0) return { status: "complete", deliveryStatus: "failed", errorCode: "ALL_FAILED" };
  return { status: "complete", deliveryStatus: "partially_delivered", errorCode: "PARTIAL_FULFILMENT" };
}

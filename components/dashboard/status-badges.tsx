import { Badge, type BadgeTone } from "./badge";

type OrderStatus = "created" | "processing" | "delivered" | "failed" | "refunded";

const ORDER_TONE: Record<OrderStatus, BadgeTone> = { created: "grey", processing: "blue", delivered: "green", failed: "red", refunded: "amber" };

/** An order's status, in the words the API uses. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={ORDER_TONE[status]}>{status}</Badge>;
}

const INVOICE_TONE: Record<string, BadgeTone> = { unpaid: "grey", processing: "blue", complete: "green", denied: "red", payment_error: "red" };

/** An invoice's status as merchant clients read it (`merchantStatus`): unpaid, processing, complete, denied, payment_error. */
export function InvoiceStatusBadge({ status }: { status: string }) {
  return <Badge tone={INVOICE_TONE[status] ?? "grey"}>{status.replace("_", " ")}</Badge>;
}

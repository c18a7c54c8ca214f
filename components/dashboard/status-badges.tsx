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

const WEBHOOK_TONE = { delivered: "green", pending: "amber", failed: "red" } as const satisfies Record<string, BadgeTone>;

/**
 * A webhook message's status. A pending one reads "retrying" once it has been tried, and "held" when nothing is
 * scheduled (its endpoint is disabled).
 */
export function WebhookStatusBadge({ delivery: d }: { delivery: { status: keyof typeof WEBHOOK_TONE; attempts: number; nextAttemptAt: Date | null } }) {
  const word = d.status !== "pending" ? d.status : d.nextAttemptAt === null ? "held" : d.attempts > 0 ? "retrying" : "pending";
  return <Badge tone={WEBHOOK_TONE[d.status]}>{word}</Badge>;
}

const BATCH_TONE: Record<string, BadgeTone> = { processing: "blue", complete: "green", partial: "amber", failed: "red" };

/** A gift card batch's status, in the API's words: processing, complete, partial, failed. */
export function BatchStatusBadge({ status }: { status: string }) {
  return <Badge tone={BATCH_TONE[status] ?? "grey"}>{status}</Badge>;
}

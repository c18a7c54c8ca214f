import type { invoices } from "@/lib/db/schema";

type InvoiceStatus = (typeof invoices.$inferSelect)["status"];

/**
 * An invoice's status at `now`: an unpaid invoice past its expiry is expired even before the sweeper marks it. Every
 * reader (the /x402 API, the merchant API, payability) starts from this one. The SQL filters of the invoice list say
 * the same in SQL (lib/dashboard/invoice-list.ts).
 */
export function effectiveStatus(inv: { status: InvoiceStatus; expiresAt: Date }, now = new Date()): InvoiceStatus {
  return inv.status === "unpaid" && inv.expiresAt <= now ? "expired" : inv.status;
}

import type { invoices, orders } from "@/lib/platform/db/schema";
import { openSealedCode, type SealedCode } from "@/lib/gift-cards";

type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;
type InvoiceStatus = InvoiceRow["status"];

/** What effectiveStatus reads of an invoice. */
export type StatusFields = Pick<InvoiceRow, "status" | "expiresAt" | "paymentClaim" | "errorCode">;

/**
 * The `error_code` an unpaid invoice keeps after a payment accepted for it (sent to the chain for settlement) failed
 * for good while the invoice could still be paid: it was given back to be paid again, and, if it is not paid in time,
 * it ends `payment_error` instead of `expired`. Cleared when the invoice is paid.
 */
export const PAYMENT_FAILED = "payment_failed";

/**
 * How an invoice ends when it can no longer be paid (lib/checkout/payment.ts writes it; readers see it at once):
 * - `expired`: its time ran out and no payment was accepted for it (a merchant reads `denied`, `status_reason:
 *   "expired"`). A payment refused as it was offered (it did not verify, or nothing could be sent: the payer was
 *   answered so at once) counts as none.
 * - `payment_error`: a payment was accepted for it and then failed for good (the chain says it can never land), and
 *   the invoice can no longer be paid: the payment held it past its expiry, or it was given back and not paid in time.
 * - `denied` (stored): refused before payment, with the reason as `error_code` (an `auto_pay` the balance could not
 *   cover: `balance_too_low`).
 * Nothing was charged in any of them. Their orders end `failed`, with `error_code` `expired`, `payment_error` or the
 * refusal's code and a sentence as `error` (UNPAID_ORDER_ERRORS).
 */
export const UNPAID_ORDER_ERRORS = {
  expired: "The invoice expired before it was paid: nothing was charged.",
  payment_error: "The payment could not be settled: nothing was charged.",
} as const;

/** The `error` of an order whose invoice's payment failed for good: why the chain refused it, when known. */
export function paymentErrorText(reason: string | null | undefined): string {
  return reason ? `The payment could not be settled (${reason}): nothing was charged.`.slice(0, 500) : UNPAID_ORDER_ERRORS.payment_error;
}

/**
 * An invoice's status at `now`: an unpaid invoice past its expiry has ended (expired, or `payment_error` when a
 * payment accepted for it failed) even before the sweeper marks it, unless a payment being settled holds it (it waits
 * for the chain: paid if the payment lands). Every reader (the /x402 API, the merchant API, payability) starts from
 * this one. The SQL filters of the dashboard's invoice list say the same in SQL (lib/checkout/dashboard-invoice-list.ts).
 */
export function effectiveStatus(inv: StatusFields, now = new Date()): InvoiceStatus {
  if (inv.status !== "unpaid" || inv.expiresAt > now || inv.paymentClaim !== null) return inv.status;
  return inv.errorCode === PAYMENT_FAILED ? "payment_error" : "expired";
}

/**
 * An order as it reads at `now`: one still `created` of an invoice that ended unpaid (not swept yet, or expired before
 * the sweep failed its orders) reads as the sweep writes it (`failed`, with why), so that an invoice's final answer
 * does not change when it is swept.
 */
export function effectiveOrder<O extends Pick<OrderRow, "status" | "errorCode" | "lastError">>(o: O, inv: StatusFields, now = new Date()): O {
  if (o.status !== "created") return withOpenedCode(o);
  const status = effectiveStatus(inv, now);
  if (status === "expired") return { ...o, status: "failed", errorCode: "expired", lastError: UNPAID_ORDER_ERRORS.expired };
  if (status === "payment_error") return { ...o, status: "failed", errorCode: "payment_error", lastError: o.lastError ?? UNPAID_ORDER_ERRORS.payment_error };
  return o;
}

/**
 * A delivered order of the shop's own gift card keeps its code only sealed (`sealed_code`, lib/gift-cards/codes.ts), as
 * the card itself does: whoever reads the order (and may see its codes: the caller decides) gets it as `code`, like any
 * other code. Every reader of orders goes through effectiveOrder, so the sealed copy never leaves the shop.
 */
function withOpenedCode<O>(o: O): O {
  const redemption = (o as { redemption?: unknown }).redemption;
  if (typeof redemption !== "object" || redemption === null || !("sealed_code" in redemption)) return o;
  const { sealed_code, ...rest } = redemption as { sealed_code: SealedCode };
  let code: string;
  try {
    code = openSealedCode(sealed_code);
  } catch {
    // Sealed under another key (GIFT_CARD_SECRET changed, which loses every card): the order reads, without its code.
    return { ...o, redemption: { ...rest, other: "This gift card's code can no longer be read: the shop's gift card key has changed." } };
  }
  return { ...o, redemption: { code, ...rest } };
}

import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { DomainError } from "@/lib/platform/errors";
import { invoices } from "@/lib/platform/db/schema";
import { markPaid, payability } from "@/lib/checkout/payment";
import { BalanceTooLow, debit, BALANCE_METHODS } from "@/lib/merchants";

/**
 * Pays a merchant's unpaid invoice from its balance, in one transaction: the invoice row is locked, the balance
 * debited (never below zero, whatever runs at the same time), the invoice marked paid and its orders made due for
 * fulfilment (markPaid, as every payment). Refusals: 404 `not_found`, 409 `invoice_not_payable` (expired, already paid, or another method), 402
 * `balance_too_low` naming both amounts. Inside a caller's transaction (an `auto_pay` creation) it is a savepoint of it.
 */
export async function payFromBalance(db: Db, merchantId: string, invoiceId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [inv] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), eq(invoices.merchantId, merchantId)))
      .for("update");
    if (!inv) throw new DomainError("not_found", `Invoice ${invoiceId} not found`);
    if (!BALANCE_METHODS.includes(inv.paymentMethod ?? "")) {
      throw new DomainError("invoice_not_payable", `Invoice ${invoiceId} is paid with ${inv.paymentMethod}, not from the balance.`);
    }
    const why = payability(inv, now);
    if (why === "expired") throw new DomainError("invoice_not_payable", `Invoice ${invoiceId} expired unpaid: create a new one.`);
    if (why)
      throw new DomainError(
        "invoice_not_payable",
        `Invoice ${invoiceId} is ${inv.status === "denied" || inv.status === "payment_error" ? inv.status : "already paid"}.`,
      );
    // What a gift card did not pay (its value was set aside when the invoice was made).
    const price = (inv.priceCents ?? 0n) - (inv.giftCardCents ?? 0n);
    try {
      const entry = await debit(tx as unknown as Db, { merchantId, amountCents: price, invoiceId, note: `Invoice ${invoiceId}` });
      if (!(await markPaid(tx as unknown as Db, invoiceId, null, { network: "balance", transaction: `ledger:${entry.id}`, payer: undefined }, now))) {
        throw new Error(`Invoice ${invoiceId} changed while its row was locked`);
      }
    } catch (err) {
      if (err instanceof BalanceTooLow) {
        throw new DomainError("balance_too_low", err.message, {
          details: { required: Number(err.requiredCents), available: Number(err.availableCents), currency: "USD" },
        });
      }
      throw err;
    }
  });
}

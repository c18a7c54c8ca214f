import type { Db } from "@/lib/platform/db";
import type { SettlementEffect } from "@/lib/payments";
import { claimForPayment, markPaid, paymentFailed, releaseClaim } from "./payment";
import { log } from "@/lib/platform/log";

/** Takes the invoice for a payment's settlement (see exchange's `claim`): null when taken, else why not. */
export const invoiceClaim =
  (invoiceId: string) =>
  async (tx: Db, settlementId: string): Promise<string | null> => {
    const claimed = await claimForPayment(tx, invoiceId, { claim: settlementId });
    return "refused" in claimed ? claimed.refused : null;
  };

/**
 * What a USDC payment of an invoice does once the chain has it: the invoice is marked paid under the payment's claim
 * (the settlement's id), in the transaction that records the settlement as settled, so it happens once. A payment
 * that cannot land gives the invoice back: one refused as it was offered leaves no trace (its payer was answered so
 * and may pay again); one that was accepted (sent to the chain) and never lands ends the invoice `payment_error` if
 * it can no longer be paid (the payment held it past its expiry), else marks it so that it ends `payment_error`
 * rather than `expired` if it is not paid in time (paymentFailed).
 *
 * A payment that lands late is honoured: the claim holds the invoice for as long as its settlement is open (it
 * neither expires nor takes another payment meanwhile), so a late landing always finds its invoice waiting for it.
 */
export const invoicePaymentEffect: SettlementEffect = {
  async landed(tx, s) {
    const paid = await markPaid(tx, s.reference, s.id, { network: s.network, transaction: s.transaction ?? "", payer: s.payer ?? undefined });
    // By construction this cannot happen; if it does, the settlement row (settled, with this invoice) is the record.
    if (!paid)
      log.error(
        { settlement_id: s.id, network: s.network, transaction: s.transaction, invoice_id: s.reference },
        "a payment landed for an invoice that no longer waited for it",
      );
  },
  async failed(tx, s, { now, refused }) {
    if (refused) return releaseClaim(tx, s.reference, s.id);
    return paymentFailed(tx, s.reference, s.id, s.lastError, now);
  },
};

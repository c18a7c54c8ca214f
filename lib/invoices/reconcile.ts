import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { invoices } from "@/lib/db/schema";
import { markPaid } from "./payment";

/**
 * A settlement that timed out after its transaction was broadcast may still land. The invoice stays held by that
 * payment (no second payment can settle) until the chain says: paid, or failed, or the authorization has run out
 * (x402 payments are valid for at most `maxTimeoutSeconds`, so after `holdMs` the transaction can no longer land).
 */
export async function recordPendingSettlement(
  db: Db,
  id: string,
  claim: string,
  pending: { network: string; transaction: string; payer: string | undefined },
  holdMs: number,
  now = new Date(),
): Promise<void> {
  await db
    .update(invoices)
    .set({
      paymentNetwork: pending.network,
      paymentTx: pending.transaction,
      paymentPayer: pending.payer ?? null,
      paymentClaimUntil: new Date(now.getTime() + holdMs),
      updatedAt: now,
    })
    .where(and(eq(invoices.id, id), eq(invoices.status, "unpaid"), eq(invoices.paymentClaim, claim)));
}

/** Settles the fate of held invoices from what the chain says of their transactions. Returns what it did. */
export async function reconcilePendingPayments(
  db: Db,
  check: (network: string, tx: string) => Promise<"success" | "failed" | "unknown">,
  now = new Date(),
): Promise<{ paid: number; released: number }> {
  const held = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.status, "unpaid"), isNotNull(invoices.paymentClaim), isNotNull(invoices.paymentTx)));
  let paid = 0;
  let released = 0;
  for (const inv of held) {
    const outcome = await check(inv.paymentNetwork ?? "", inv.paymentTx ?? "");
    const claim = inv.paymentClaim!;
    if (outcome === "success") {
      if (await markPaid(db, inv.id, claim, { network: inv.paymentNetwork!, transaction: inv.paymentTx!, payer: inv.paymentPayer ?? undefined }, now)) paid++;
    } else if (outcome === "failed" || (inv.paymentClaimUntil && inv.paymentClaimUntil < now)) {
      // The payment never landed (or cannot any more): the invoice is payable again, without a trace of it.
      const freed = await db
        .update(invoices)
        .set({ paymentTx: null, paymentNetwork: null, paymentPayer: null, paymentClaim: null, paymentClaimUntil: null, updatedAt: now })
        .where(and(eq(invoices.id, inv.id), eq(invoices.status, "unpaid"), eq(invoices.paymentClaim, claim)))
        .returning({ id: invoices.id });
      released += freed.length;
    }
  }
  return { paid, released };
}

import { claimForPayment, markPaid } from "@/lib/invoices";
import type { Db } from "@/lib/db";

/** A devnet-looking EVM payment: network id of the local Base chain, a fixed payer address. */
export const TEST_PAYMENT = { network: "eip155:84530402", payer: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" } as const;

/**
 * Marks an invoice paid exactly as the pay route does after settlement (claim, then `markPaid`: status `paid`,
 * payment recorded, its orders due), for tests of what happens after payment.
 */
export async function payInvoice(
  db: Db,
  invoiceId: string,
  payment: { network: string; payer: string; transaction?: string } = TEST_PAYMENT,
  now = new Date(),
): Promise<void> {
  const claim = await claimForPayment(db, invoiceId, now);
  if (!("claim" in claim)) throw new Error(`invoice ${invoiceId} cannot be paid: ${claim.refused}`);
  const settled = await markPaid(db, invoiceId, claim.claim, { network: payment.network, payer: payment.payer, transaction: payment.transaction ?? `0x${"ab".repeat(32)}` }, now);
  if (!settled) throw new Error(`invoice ${invoiceId} was not marked paid`);
}

import type { Db } from "@/lib/platform/db";
import { walletOwnerKey, type Wallet } from "@/lib/identity";
import { effectiveOrder, effectiveStatus } from "./effective-status";
import { getInvoiceWithOrders, type InvoiceWithOrders } from "./status";

/** Who asks for an invoice: a wallet, proven (signed in) or only named (the payer of a fee), or nobody known. */
export type Viewer = { wallet: Wallet; proven: boolean } | null;

/** An invoice as one viewer may see it: its status and its orders now, and whether this viewer may read its codes. */
export type InvoiceView = InvoiceWithOrders & { status: ReturnType<typeof effectiveStatus>; canSeeCodes: boolean };

/** Invoices store the payer chain-free: one EVM key is one wallet on every EVM chain. */
const isPayer = (wallet: Wallet, payerKey: string) => walletOwnerKey(wallet) === payerKey;

/**
 * Whether a viewer may read an invoice's codes: only the wallet that pays it, proven by a signature (a fee's payer is
 * only named), and only once the invoice is complete.
 */
export function canSeeCodes(invoice: InvoiceWithOrders["invoice"], viewer: Viewer, now = new Date()): boolean {
  return Boolean(viewer?.proven && isPayer(viewer.wallet, invoice.payer) && effectiveStatus(invoice, now) === "complete");
}

/**
 * An invoice's status for a viewer: anyone may see it, except a proven wallet that is not its payer (who is refused:
 * a signed-in wallet asks about its own invoices). Undefined when there is no such invoice.
 */
export async function getStatus(db: Db, id: string, viewer: Viewer, now = new Date()): Promise<InvoiceView | "not_the_payer" | undefined> {
  const found = await getInvoiceWithOrders(db, id);
  if (!found) return undefined;
  if (viewer?.proven && !isPayer(viewer.wallet, found.invoice.payer)) return "not_the_payer";
  return {
    invoice: found.invoice,
    orders: found.orders.map((o) => effectiveOrder(o, found.invoice, now)),
    status: effectiveStatus(found.invoice, now),
    canSeeCodes: canSeeCodes(found.invoice, viewer, now),
  };
}

import { usdcToDecimal } from "@/lib/platform/money";
import type { invoices, orders } from "@/lib/platform/db/schema";
import { amountDueUsdc } from "@/lib/checkout/amount-due";
import { getPayments } from "@/lib/payments";
import { merchantInvoice, paymentStatus } from "./merchant-invoice-view";
import { isAddressOnlyMethod, methodCoin } from "@/lib/merchants";
import type { DbOrTx } from "@/lib/platform/db";
import type { PaymentAddressRow } from "@/lib/payments";
import { paymentAddressesOf, paymentByAddress } from "./address-payment";

type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/**
 * The merchant API's invoice object, the one serializer of every answer that holds an invoice (creation, GET, lists,
 * payment) and of the webhook: the invoice and its orders; for a USDC invoice its network, the address paid and the
 * amount in USDC (what a gift card did not pay); and, while it can still be paid and for an answer to a request (`origin`), how to pay it: the x402
 * payment URL (POST with the body shown; any x402 client answers its 402) and the human payment page; for an invoice
 * with an address of its own (USDC on an EVM network, ether), the transfer to it and what it received. A webhook is
 * sent for final invoices only, so for the same state it carries exactly what `GET /invoices/{id}` answers.
 */
export async function invoiceObject(
  db: DbOrTx,
  inv: InvoiceRow,
  items: OrderRow[],
  opts: { origin?: string; now?: Date; addresses?: Map<string, PaymentAddressRow> } = {},
) {
  const now = opts.now ?? new Date();
  const address = methodCoin(inv.paymentMethod) ? (opts.addresses ?? (await paymentAddressesOf(db, [inv.id]))).get(inv.id) : undefined;
  return merchantInvoice(inv, items, now, await usdcDetails(inv, now, opts.origin, address));
}

async function usdcDetails(inv: InvoiceRow, now: Date, origin: string | undefined, address: PaymentAddressRow | undefined): Promise<Record<string, unknown>> {
  const method = methodCoin(inv.paymentMethod);
  const payments = await getPayments();
  const n = method ? [...payments.networks, ...payments.addressNetworks].find((x) => x.key === method.key) : undefined;
  if (!n || !method) return {};
  if (isAddressOnlyMethod(inv.paymentMethod)) {
    // Ether, and USDC on Ethereum: only by a transfer to the invoice's own address.
    return {
      ...(inv.paymentNetwork && inv.paymentNetwork !== "gift_card" ? {} : { network: n.network }),
      network_name: n.name,
      ...(address ? { address: address.address, ...paymentByAddress(address, n, inv) } : {}),
      ...(origin && paymentStatus(inv, now) === "unpaid" && inv.expiresAt > now ? { payment_page: `${origin}/pay/${inv.id}` } : {}),
    };
  }
  return {
    // (The network of a settled payment is the invoice's own; a gift card that paid it all settled none.)
    ...(inv.paymentNetwork && inv.paymentNetwork !== "gift_card" ? {} : { network: n.network }),
    network_name: n.name,
    // Where a plain transfer pays it: the invoice's own address (x402 payments go where their requirements say).
    address: address?.address ?? n.payTo,
    // What is paid in USDC: the price less what a gift card paid (`gift_card`); "0" when the card paid it all.
    amount_usdc: usdcToDecimal(amountDueUsdc(inv)),
    // (An unpaid invoice past its expiry is held by a payment being settled: it takes no other.)
    ...(origin && paymentStatus(inv, now) === "unpaid" && inv.expiresAt > now
      ? { payment_url: `${origin}/x402/invoice/pay`, payment_body: { invoice_id: inv.id }, payment_page: `${origin}/pay/${inv.id}` }
      : {}),
    ...(address ? paymentByAddress(address, n, inv) : {}),
  };
}

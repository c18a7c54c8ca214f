import { usdcToDecimal, centsToUsdc } from "@/lib/platform/money";
import { getDb } from "@/lib/platform/db";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { getInvoice } from "@/lib/checkout/payment";
import { isInvoiceId } from "@/lib/platform/ids";
import { amountDueUsdc } from "@/lib/checkout/amount-due";
import { merchantStatus, paymentStatus } from "@/lib/checkout/merchant-invoice-view";
import { methodCoin, methodNetworkKey } from "@/lib/merchants";
import { getPayments } from "@/lib/payments";
import { paymentAddressesOf, paymentByAddress, quoteEnd } from "@/lib/checkout/address-payment";

/**
 * `GET /api/pay/{id}`: what the payment page of a merchant's USDC or ether invoice shows: amount (what a gift card did
 * not pay), network, expiry and state; whether a wallet pays it through x402 (USDC), and, for an invoice with an address
 * of its own, the transfer to it and what arrived (`by_address`, as the merchant API's `payment` carries it).
 * Whoever holds the (unguessable) invoice id may pay it; nothing here reveals the items' codes or the merchant.
 */
export const payPageInvoice = guardedRoute(async (_req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  const { id } = await params;
  const inv = isInvoiceId(id) ? await getInvoice(await getDb(), id) : undefined;
  const method = inv?.merchantId ? methodCoin(inv.paymentMethod) : undefined;
  const payments = await getPayments();
  const network = method ? [...payments.networks, ...payments.addressNetworks].find((n) => n.key === method.key) : undefined;
  if (!inv || !network || !method)
    return jsonResponse({ error_code: "not_found", message: "No invoice to pay in USDC or ether has this id." }, { status: 404 });
  const address = (await paymentAddressesOf(await getDb(), [inv.id])).get(inv.id);
  const byAddress = address ? { address: address.address, ...paymentByAddress(address, network, inv) } : undefined;
  return jsonResponse({
    invoice_id: inv.id,
    status: merchantStatus(inv),
    payment_status: paymentStatus(inv),
    // What the wallet pays: the price less what a gift card paid (`gift_card_usdc`), as invoice/pay asks.
    amount_usdc: usdcToDecimal(amountDueUsdc(inv)),
    amount_usdc_atomic: amountDueUsdc(inv).toString(),
    ...(inv.giftCardCents !== null ? { gift_card_usdc: usdcToDecimal(centsToUsdc(inv.giftCardCents)) } : {}),
    network: network.network,
    network_name: network.name,
    // Until when it is offered: an address's quote (a payment a little later is still weighed, not invited).
    expires_at: (address ? quoteEnd(address, inv) : inv.expiresAt).toISOString(),
    // (A card that paid it all made no transaction.)
    transaction: inv.paymentNetwork === "gift_card" ? null : inv.paymentTx,
    coin: method.coin,
    // A wallet that signs x402 pays a USDC invoice in one signature; ether only by a transfer to the invoice's address.
    x402: methodNetworkKey(inv.paymentMethod) !== undefined,
    ...(byAddress ? { by_address: byAddress } : {}),
  });
});

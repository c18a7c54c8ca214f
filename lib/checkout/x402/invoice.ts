import { amountDueUsdc } from "@/lib/checkout/amount-due";
import { usdcToDecimal, centsToUsdc } from "@/lib/platform/money";
import { config } from "@/lib/platform/config";
import { createInvoice } from "@/lib/checkout/create-invoice";
import { createInvoiceBody } from "@/lib/api/x402";
import type { Wallet } from "@/lib/identity";
import { getPayments } from "@/lib/payments";
import { ApiError, invalidParams } from "@/lib/platform/http/api-error";
import { x402Json } from "@/lib/platform/http/body";
import { nextStep, clientIp, RateLimitedError } from "@/lib/api/x402";
import { countedGuess } from "@/lib/gift-cards";
import { getAddress, isAddress } from "viem";
import { isAddress as isSolanaAddress } from "@solana/kit";
import { getDb, type Db } from "@/lib/platform/db";
import { methodNetworkKey, unavailableMethod } from "@/lib/merchants";
import { LATE_GRACE_MS, payByAddressFor, shopperAddressPayment } from "@/lib/checkout/address-payment";
import { getInvoice } from "@/lib/checkout/payment";
import type { ShopperPaying } from "@/lib/checkout/create-invoice";
import type { SHOPPER_PAYMENT_METHODS } from "@/lib/api/x402";

/** Reads and validates the body of POST /x402/invoice/create; a 400 names the field at fault. */
export async function readCreateBody(req: Request) {
  const json = await x402Json(req, 'The body must be JSON: {"items": [{"product_id", "package_value", "refill_input"?}]}');
  const parsed = createInvoiceBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const missing = issue && (issue.code === "invalid_type" || issue.message === "is required");
    const tooMany = issue?.code === "too_big" && issue.path.length === 1;
    if (tooMany) throw new ApiError(400, "TOO_MANY_ITEMS", `items: ${issue.message}`, { field: "items" });
    throw invalidParams(parsed.error.issues, missing ? "MISSING_FIELD" : "INVALID_PARAMETER");
  }
  return parsed.data;
}

/**
 * How a shopper who named a payment method pays: on a network this shop offers (else UNSUPPORTED_PAYMENT_METHOD, with
 * what is offered), by address when the method is (payByAddressFor), refunds to `refund_address` or else the paying
 * wallet when it is an EVM one (none: a refund waits for the operator).
 */
async function shopperPaying(
  db: Db,
  method: (typeof SHOPPER_PAYMENT_METHODS)[number],
  refundAddress: string | undefined,
  payer: Wallet,
): Promise<ShopperPaying> {
  const payments = await getPayments();
  const unavailable = unavailableMethod(method, [...payments.networks, ...payments.addressNetworks], config().networkMode);
  if (unavailable) throw new ApiError(400, "UNSUPPORTED_PAYMENT_METHOD", unavailable, { field: "payment_method" });
  const decided = await payByAddressFor(db, method, "Leave out payment_method to pay in USDC through x402");
  if (decided && "refused" in decided) throw new ApiError(400, "UNSUPPORTED_PAYMENT_METHOD", decided.refused, { field: "payment_method" });
  // A shopper names a method to pay by transfer: where this shop has no address for it, x402 is the way.
  if (!decided) {
    throw new ApiError(
      400,
      "UNSUPPORTED_PAYMENT_METHOD",
      `Payment method ${method} is taken through x402 only on this shop (it has no gas wallet to collect a transfer to an invoice's address there): leave payment_method out and pay with invoice/pay.`,
      { field: "payment_method" },
    );
  }
  // Refunds go back on the invoice's network: an address of its chain family (the paying wallet's by default).
  const solana = decided?.network.kind === "solana";
  const family = solana ? "solana:" : "eip155:";
  if (refundAddress && (solana ? !isSolanaAddress(refundAddress) : !isAddress(refundAddress, { strict: false }))) {
    throw new ApiError(400, "INVALID_PARAMETER", `refund_address: must be ${solana ? "a Solana" : "an EVM"} address for ${method}`, {
      field: "refund_address",
    });
  }
  const own = payer.chainId.startsWith(family) ? (solana ? payer.address : getAddress(payer.address)) : null;
  return {
    method,
    payByAddress: decided,
    refundAddress: refundAddress ? (solana ? refundAddress : getAddress(refundAddress.toLowerCase())) : own,
  };
}

/** POST /x402/invoice/create: quotes the cart, locks the price for the paying wallet, points at invoice/pay. */
export async function createInvoiceResponse(req: Request, payer: Wallet | null, origin: string) {
  const body = await readCreateBody(req);
  if (!payer) throw new ApiError(400, "MISSING_IDENTITY", "No paying wallet: pay the fee, sign in with SIGN-IN-WITH-X, or send X-Access-Token");
  // A refusal is a DomainError: the wrapper answers it from the /x402 table (./errors.ts).
  const ip = clientIp(req);
  const db = await getDb();
  const paying = body.payment_method ? await shopperPaying(db, body.payment_method, body.refund_address, payer) : undefined;
  const create = () =>
    createInvoice(
      { items: body.items, payer, affiliateCode: req.headers.get("x-service-affiliate-id"), giftCardCode: body.gift_card_code, clientIp: ip, paying },
      db,
    );
  // A gift card code is a try of the address and the wallet: wrong ones are limited (RATE_LIMITED, 429).
  const invoice =
    body.gift_card_code === undefined
      ? await create()
      : await countedGuess({ ip, holder: payer.address }, create, (decision) => new RateLimitedError(decision));
  const payments = await getPayments();
  const card = invoice.giftCardCents ?? 0n;
  // Named a method: x402 pays it on that network only (none for ether and USDC on Ethereum), and its address as `payment`.
  const x402Key = paying ? methodNetworkKey(paying.method) : undefined;
  const networks = paying ? payments.networks.filter((n) => n.key === x402Key) : payments.networks;
  const created = paying?.payByAddress ? await getInvoice(db, invoice.id) : undefined;
  const byAddress = created ? await shopperAddressPayment(db, created) : undefined;
  return {
    invoice_id: invoice.id,
    price_usdc: usdcToDecimal(invoice.priceUsdc),
    price_usd: usdcToDecimal(invoice.priceUsdc),
    price_usdc_atomic: invoice.priceUsdc.toString(),
    ...(invoice.giftCardCents !== null ? { gift_card_usdc: usdcToDecimal(centsToUsdc(card)) } : {}),
    amount_due_usdc: usdcToDecimal(amountDueUsdc(invoice)),
    status: invoice.paidByCard ? ("paid" as const) : ("unpaid" as const),
    networks: networks.map((n) => ({ network: n.network, name: n.name })),
    // (Paid by address: the invoice outlives its quote, `payment.expires_time`, by the grace a late transfer has.)
    expires_in_minutes: config().invoiceTtlMinutes + (paying?.payByAddress ? LATE_GRACE_MS / 60_000 : 0),
    expires_at: invoice.expiresAt.toISOString(),
    items: invoice.items.map((i) => ({
      order_id: i.orderId,
      product_id: i.productId,
      name: i.productName,
      package_value: i.packageValue,
      price_usdc: usdcToDecimal(i.priceUsdc),
      ...(i.recipient ? { refill_input: i.recipient } : {}),
    })),
    ...(byAddress ? { payment: byAddress } : {}),
    next_step:
      invoice.paidByCard || (paying && networks.length === 0)
        ? nextStep(origin, "GET", `/x402/invoice/status?invoice_id=${invoice.id}`)
        : nextStep(origin, "POST", "/x402/invoice/pay", { invoice_id: invoice.id }),
  };
}

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

/** POST /x402/invoice/create: quotes the cart, locks the price for the paying wallet, points at invoice/pay. */
export async function createInvoiceResponse(req: Request, payer: Wallet | null, origin: string) {
  const body = await readCreateBody(req);
  if (!payer) throw new ApiError(400, "MISSING_IDENTITY", "No paying wallet: pay the fee, sign in with SIGN-IN-WITH-X, or send X-Access-Token");
  // A refusal is a DomainError: the wrapper answers it from the /x402 table (./errors.ts).
  const ip = clientIp(req);
  const create = () =>
    createInvoice({ items: body.items, payer, affiliateCode: req.headers.get("x-service-affiliate-id"), giftCardCode: body.gift_card_code, clientIp: ip });
  // A gift card code is a try of the address and the wallet: wrong ones are limited (RATE_LIMITED, 429).
  const invoice =
    body.gift_card_code === undefined
      ? await create()
      : await countedGuess({ ip, holder: payer.address }, create, (decision) => new RateLimitedError(decision));
  const { networks } = await getPayments();
  const card = invoice.giftCardCents ?? 0n;
  return {
    invoice_id: invoice.id,
    price_usdc: usdcToDecimal(invoice.priceUsdc),
    price_usd: usdcToDecimal(invoice.priceUsdc),
    price_usdc_atomic: invoice.priceUsdc.toString(),
    ...(invoice.giftCardCents !== null ? { gift_card_usdc: usdcToDecimal(centsToUsdc(card)) } : {}),
    amount_due_usdc: usdcToDecimal(amountDueUsdc(invoice)),
    status: invoice.paidByCard ? ("paid" as const) : ("unpaid" as const),
    networks: networks.map((n) => ({ network: n.network, name: n.name })),
    expires_in_minutes: config().invoiceTtlMinutes,
    expires_at: invoice.expiresAt.toISOString(),
    items: invoice.items.map((i) => ({
      order_id: i.orderId,
      product_id: i.productId,
      name: i.productName,
      package_value: i.packageValue,
      price_usdc: usdcToDecimal(i.priceUsdc),
      ...(i.recipient ? { refill_input: i.recipient } : {}),
    })),
    next_step: invoice.paidByCard
      ? nextStep(origin, "GET", `/x402/invoice/status?invoice_id=${invoice.id}`)
      : nextStep(origin, "POST", "/x402/invoice/pay", { invoice_id: invoice.id }),
  };
}

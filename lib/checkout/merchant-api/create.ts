import { BodyError, parseJsonText } from "@/lib/platform/http/body";
import { invoiceItem, V2Error, invalidParam, missingParam, merchantPriceCents } from "@/lib/api/merchant";
import type { Db } from "@/lib/platform/db";
import { createInvoice, type CreatedInvoice } from "@/lib/checkout/create-invoice";
import { DomainError } from "@/lib/platform/errors";
import { PAYMENT_METHODS, type PaymentMethod } from "@/lib/merchants";
import { payByAddressFor, type PayByAddress } from "@/lib/checkout/address-payment";

export { PAYMENT_METHODS, methodNetworkKey, type PaymentMethod } from "@/lib/merchants";

/** The spec's limit of items (quantities summed) per merchant invoice. */
export const MAX_MERCHANT_ITEMS = 20;

/** Where an expanded item came from in the request: its index in `products`, and the fields it was given by. */
type Source = { index: number; value: "value" | "package_id"; recipient: "phone_number" | "email" | "esim_id" | undefined };

export type MerchantInvoiceRequest = {
  /** One per unit (quantities expanded), as the shared invoice code takes them, each with its `source`. */
  items: { product_id: string; package_value: string; refill_input?: string; source: Source }[];
  paymentMethod: PaymentMethod;
  webhookUrl: string | null;
  autoPay: boolean;
  /** A gift card of the shop that pays first (`gift_card_code`); the payment method pays the rest. */
  giftCardCode?: string;
};

/**
 * Reads a `POST /invoices` (or `/esims`) body, with the spec's error codes: `parse_error`, `missing_param`,
 * `invalid_param`, `invalid_quantity`, `too_many_items`, `unsupported_payment_method`.
 */
export function parseInvoiceRequest(text: string): MerchantInvoiceRequest {
  let body: unknown;
  try {
    body = parseJsonText(text);
  } catch (err) {
    // A V2Error here, not the wrapper's answer to a BodyError: an Idempotency-Key stores and replays it.
    throw err instanceof BodyError ? new V2Error(400, "parse_error", err.message) : err;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new V2Error(400, "parse_error", "The request body must be a JSON object.");
  const b = body as Record<string, unknown>;

  if (b.products === undefined) throw missingParam("products");
  if (!Array.isArray(b.products)) throw invalidParam("products", "must be an array of {product_id, value | package_id, quantity?}");
  if (b.products.length === 0) throw invalidParam("products", "must hold at least one item");

  const items: MerchantInvoiceRequest["items"] = [];
  for (const [i, raw] of b.products.entries()) {
    const field = `products[${i}]`;
    if (typeof raw !== "object" || raw === null) throw invalidParam(field, "must be an object");
    const r = raw as Record<string, unknown>;
    if (r.product_id === undefined) throw missingParam(`${field}.product_id`);
    const parsed = invoiceItem.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalidParam(`${field}.${String(issue?.path[0] ?? "")}`, issue?.message ?? "invalid");
    }
    const p = parsed.data;
    const quantity = p.quantity ?? 1;
    if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) {
      throw new V2Error(400, "invalid_quantity", `Invalid quantity in ${field}: a positive integer is required.`);
    }
    const value = p.package_id ?? (p.value === undefined ? undefined : String(p.value));
    if (value === undefined) throw missingParam(`${field}.value`);
    const given = (["phone_number", "email", "esim_id"] as const).filter((k) => p[k]);
    if (given.length > 1) throw invalidParam(field, `give one of phone_number, email, esim_id, not ${given.join(" and ")}`);
    const recipient = given[0];
    const refill = recipient ? p[recipient] : undefined;
    const source: Source = { index: i, value: p.package_id !== undefined ? "package_id" : "value", recipient };
    if (items.length + quantity > MAX_MERCHANT_ITEMS) {
      throw new V2Error(400, "too_many_items", `An invoice holds at most ${MAX_MERCHANT_ITEMS} items (quantities counted): split the order.`);
    }
    for (let n = 0; n < quantity; n++) items.push({ product_id: p.product_id, package_value: value, ...(refill ? { refill_input: refill } : {}), source });
  }

  if (b.payment_method === undefined) throw missingParam("payment_method");
  if (typeof b.payment_method !== "string") throw invalidParam("payment_method", "must be a string");
  if (!(PAYMENT_METHODS as readonly string[]).includes(b.payment_method)) {
    throw new V2Error(
      400,
      "unsupported_payment_method",
      `Payment method ${JSON.stringify(b.payment_method)} is not supported. Supported: ${PAYMENT_METHODS.join(", ")}.`,
    );
  }
  let webhookUrl: string | null = null;
  if (b.webhook_url !== undefined && b.webhook_url !== null) {
    if (typeof b.webhook_url !== "string") throw invalidParam("webhook_url", "must be a URL");
    webhookUrl = b.webhook_url;
  }
  if (b.auto_pay !== undefined && typeof b.auto_pay !== "boolean") throw invalidParam("auto_pay", "must be true or false");
  let giftCardCode: string | undefined;
  if (b.gift_card_code !== undefined && b.gift_card_code !== null) {
    if (typeof b.gift_card_code !== "string" || b.gift_card_code.length > 64) throw invalidParam("gift_card_code", "must be a gift card's code");
    giftCardCode = b.gift_card_code;
  }
  // With any method: the card pays first, the method the rest (`gift_card` and `balance` from the balance, `usdc_*` in USDC).
  if (b.payment_method === "gift_card" && giftCardCode === undefined) throw missingParam("gift_card_code");
  return { items, paymentMethod: b.payment_method as PaymentMethod, webhookUrl, autoPay: b.auto_pay === true, giftCardCode };
}

/**
 * A refusal of the shared invoice code names the expanded item (`["items", n, "package_value"]`): the same refusal
 * about the request's own field (`["products", i, "value"]`), for the merchant API's table to answer (./errors.ts).
 */
export function inRequestTerms(err: DomainError, items: MerchantInvoiceRequest["items"]): DomainError {
  const [root, n, part] = err.path;
  const src = root === "items" && typeof n === "number" ? items[n]?.source : undefined;
  if (!src) return err;
  const field =
    part === "package_value" ? src.value : part === "refill_input" ? (src.recipient ?? (err.details.recipient === "email" ? "email" : "phone_number")) : part;
  const path = field === undefined ? ["products", src.index] : ["products", src.index, field];
  // The spec's two codes for a package not found: `invalid_package_id` for a `package_id` that names none,
  // `invalid_value` for a `value` outside what the product allows, however it is written ("-5", "abc", 999999) when the
  // product takes an amount from a range. A product of fixed packages only is asked for one of them: a value that is
  // none names no package.
  if (part === "package_value" && (err.code === "unknown_package" || err.code === "package_out_of_range")) {
    const ranged = err.code === "package_out_of_range" || err.details.range !== undefined;
    const code = src.value === "value" && ranged ? "package_out_of_range" : "unknown_package";
    return new DomainError(code, err.message, { path, details: { ...err.details } });
  }
  return err.at(path);
}

/** How an invoice of this method is paid by address (payByAddressFor), or its refusal as `unsupported_payment_method`. */
async function addressPayment(db: Db, method: PaymentMethod): Promise<PayByAddress | undefined> {
  const decided = await payByAddressFor(db, method, "Pay in USDC through x402");
  if (decided && "refused" in decided) throw new V2Error(400, "unsupported_payment_method", decided.refused);
  return decided;
}

/** Creates the merchant's invoice from a parsed request (quotes, checks stock and recipients, locks the price). */
export async function createMerchantInvoice(
  db: Db,
  merchantId: string,
  req: MerchantInvoiceRequest,
  onCreated?: (tx: Db, invoiceId: string) => Promise<void>,
): Promise<CreatedInvoice> {
  try {
    return await createInvoice(
      {
        items: req.items,
        merchant: {
          merchantId,
          paymentMethod: req.paymentMethod,
          webhookUrl: req.webhookUrl,
          priceCents: merchantPriceCents,
          payByAddress: await addressPayment(db, req.paymentMethod),
        },
        giftCardCode: req.giftCardCode,
        onCreated,
      },
      db,
    );
  } catch (err) {
    throw err instanceof DomainError ? inRequestTerms(err, req.items) : err;
  }
}

import { z } from "zod";
import { V2Error, invalidParam, missingParam } from "@/lib/api-v2/envelope";
import { merchantPriceCents } from "@/lib/api-v2/products";
import type { Db } from "@/lib/db";
import { createInvoice, type CreatedInvoice } from "@/lib/invoices/create-invoice";
import { InvoiceError } from "@/lib/invoices/invoice-error";
import { PAYMENT_METHODS, type PaymentMethod } from "./methods";

export { PAYMENT_METHODS, methodNetworkKey, type PaymentMethod } from "./methods";

/** The spec's limit of items (quantities summed) per merchant invoice. */
export const MAX_MERCHANT_ITEMS = 20;


const item = z.object({
  product_id: z.string().trim().min(1).max(80),
  value: z.union([z.number(), z.string()]).optional(),
  package_id: z.string().trim().min(1).max(200).optional(),
  quantity: z.unknown().optional(),
  phone_number: z.string().trim().max(100).optional(),
  esim_id: z.string().trim().max(40).optional(),
});

export type MerchantInvoiceRequest = {
  items: { product_id: string; package_value: string; refill_input?: string }[];
  paymentMethod: PaymentMethod;
  webhookUrl: string | null;
  autoPay: boolean;
};

/**
 * Reads a `POST /invoices` (or `/esims`) body, with the spec's error codes: `parse_error`, `missing_param`,
 * `invalid_param`, `invalid_quantity`, `too_many_items`, `unsupported_payment_method`.
 */
export function parseInvoiceRequest(text: string): MerchantInvoiceRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new V2Error(400, "parse_error", "The request body is not valid JSON.");
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
    const parsed = item.safeParse(raw);
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
    if (p.phone_number && p.esim_id) throw invalidParam(field, "give phone_number or esim_id, not both");
    const refill = p.phone_number ?? p.esim_id;
    if (items.length + quantity > MAX_MERCHANT_ITEMS) {
      throw new V2Error(400, "too_many_items", `An invoice holds at most ${MAX_MERCHANT_ITEMS} items (quantities counted): split the order.`);
    }
    for (let n = 0; n < quantity; n++) items.push({ product_id: p.product_id, package_value: value, ...(refill ? { refill_input: refill } : {}) });
  }

  if (b.payment_method === undefined) throw missingParam("payment_method");
  if (typeof b.payment_method !== "string") throw invalidParam("payment_method", "must be a string");
  if (!(PAYMENT_METHODS as readonly string[]).includes(b.payment_method)) {
    throw new V2Error(400, "unsupported_payment_method", `Payment method ${JSON.stringify(b.payment_method)} is not supported. Supported: ${PAYMENT_METHODS.join(", ")}.`);
  }
  let webhookUrl: string | null = null;
  if (b.webhook_url !== undefined && b.webhook_url !== null) {
    if (typeof b.webhook_url !== "string" || !URL.canParse(b.webhook_url) || !/^https?:$/.test(new URL(b.webhook_url).protocol)) {
      throw invalidParam("webhook_url", "must be an http(s) URL");
    }
    webhookUrl = b.webhook_url;
  }
  if (b.auto_pay !== undefined && typeof b.auto_pay !== "boolean") throw invalidParam("auto_pay", "must be true or false");
  return { items, paymentMethod: b.payment_method as PaymentMethod, webhookUrl, autoPay: b.auto_pay === true };
}

/** The merchant API's error for a refusal of the shared invoice code. */
export function toV2Error(err: InvoiceError, items: MerchantInvoiceRequest["items"]): V2Error {
  const field = typeof err.details.field === "string" ? err.details.field.replace(/^items\.(\d+)/, (_, i: string) => `products[${i}]`) : undefined;
  switch (err.code) {
    case "UNKNOWN_PRODUCT":
      return new V2Error(404, "not_found", `Product not found: ${JSON.stringify(items[Number(/\d+/.exec(field ?? "")?.[0] ?? 0)]?.product_id ?? "")}`);
    case "OUT_OF_STOCK":
      return new V2Error(409, "out_of_stock", err.message.replace(/^items\.(\d+)/, "products[$1]"));
    case "UNKNOWN_PACKAGE": {
      const index = Number(/^items\.(\d+)/.exec(String(err.details.field ?? ""))?.[1] ?? 0);
      const amount = /^\d+(\.\d+)?$/.test(items[index]?.package_value ?? "");
      return err.details.range && amount
        ? new V2Error(400, "invalid_value", err.message.replace(/^items\.(\d+)\.package_value/, "products[$1].value"))
        : new V2Error(400, "invalid_package_id", err.message.replace(/^items\.(\d+)\.package_value/, "products[$1]"));
    }
    case "MISSING_FIELD":
      return new V2Error(400, "missing_param", `Missing required parameter: ${field ?? "phone_number"} (${err.message.replace(/^[^:]+: /, "")})`);
    case "INVALID_RECIPIENT":
      return /phone/i.test(err.message)
        ? new V2Error(400, "invalid_phone_number", `Invalid phone number in ${field ?? "products"}: E.164 format expected. ${err.message.replace(/^[^:]+: /, "")}`)
        : new V2Error(400, "invalid_param", err.message.replace(/^items\.(\d+)\.refill_input/, "products[$1].esim_id"));
    case "AMOUNT_TOO_LARGE":
    case "AMOUNT_TOO_SMALL":
      return new V2Error(400, "invalid_value", err.message);
    default:
      return new V2Error(500, "create_invoice_failed", "The invoice could not be created.");
  }
}

/** Creates the merchant's invoice from a parsed request (quotes, checks stock and recipients, locks the price). */
export async function createMerchantInvoice(db: Db, merchantId: string, req: MerchantInvoiceRequest): Promise<CreatedInvoice> {
  try {
    return await createInvoice(
      { items: req.items, merchant: { merchantId, paymentMethod: req.paymentMethod, webhookUrl: req.webhookUrl, priceCents: merchantPriceCents } },
      db,
    );
  } catch (err) {
    if (err instanceof InvoiceError) throw toV2Error(err, req.items);
    throw err;
  }
}

import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import type { Db } from "@/lib/platform/db";
import { createInvoice, createInvoiceBody, getInvoice } from "@/lib/checkout";
import { payInvoice } from "@/lib/checkout/x402/pay";

/** Test support for the x402 invoice payment route: invoices to pay, its requests, its 402's offers. */

/** An invoice for one $10 test gift card (the test catalog's), of a wallet of its own. */
export async function newTestInvoice(db: Db): Promise<{ id: string; priceUsdc: bigint }> {
  const items = createInvoiceBody.parse({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }).items;
  const inv = await createInvoice({ items, payer: { chainId: "eip155:1", address: privateKeyToAccount(generatePrivateKey()).address } }, db);
  return { id: inv.id, priceUsdc: (await getInvoice(db, inv.id))!.priceUsdc };
}

/** `POST /x402/invoice/pay` for an invoice, with a payment header or without. */
export const payRequest = (invoiceId: string, payment?: string) =>
  new Request("http://127.0.0.1/x402/invoice/pay", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(payment ? { "PAYMENT-SIGNATURE": payment } : {}) },
    body: JSON.stringify({ invoice_id: invoiceId }),
  });

/** The 402 of an unpaid invoice's payment, offering only `network`. */
export async function requiredFor(invoiceId: string, network: string): Promise<PaymentRequired> {
  const res = await payInvoice(payRequest(invoiceId));
  expect(res.status).toBe(402);
  const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
  return { ...required, accepts: required.accepts.filter((a) => a.network === network) };
}

import { describe, expect, it } from "vitest";
import type { invoices } from "@/lib/platform/db/schema";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { describeInvoicePayment, paymentMethodLabel } from "./dashboard-invoice-payment";

const now = new Date("2026-03-01T12:00:00Z");
const invoice = (over: Partial<typeof invoices.$inferSelect>): typeof invoices.$inferSelect => ({
  id: "inv_1",
  status: "complete",
  payer: "merchant:m_1",
  priceUsdc: 10_300_000n,
  affiliateId: null,
  source: "merchant",
  expiresAt: new Date("2026-03-01T12:30:00Z"),
  deliveryStatus: "delivered",
  errorCode: null,
  paymentNetwork: null,
  paymentTx: null,
  paymentPayer: null,
  paymentClaim: null,
  paymentClaimUntil: null,
  createdAt: now,
  updatedAt: now,
  paidAt: now,
  completedAt: now,
  merchantId: "m_1",
  paymentMethod: "balance",
  priceCents: 1030n,
  webhookUrl: null,
  giftCardCents: null,
  clientAddress: null,
  clientNetwork: null,
  ...over,
});
const base: PaymentNetwork = {
  kind: "evm",
  key: "base",
  network: "eip155:8453",
  chainId: 8453,
  name: "Base",
  rpcUrl: "http://127.0.0.1:1",
  payTo: "0x0000000000000000000000000000000000000001",
  usdc: { address: "0x0000000000000000000000000000000000000002", name: "USD Coin", version: "2", decimals: 6 },
  explorerTx: (h) => `https://basescan.org/tx/${h}`,
};
const devBase: PaymentNetwork = { ...base, network: "eip155:31337001", name: "Base (devnet)", explorerTx: undefined };

describe("an invoice's payment as the dashboard shows it", () => {
  it("a balance payment names its ledger entry and no transaction", () => {
    const p = describeInvoicePayment(invoice({ paymentNetwork: "balance", paymentTx: "ledger:42" }), [base], now);
    expect(p).toMatchObject({ method: "Balance", priceCents: 1030n, usdc: null, status: "paid", transaction: null, payer: null, ledgerEntryId: 42 });
  });

  it("a USDC payment links its transaction on the network's explorer, and names the paying wallet", () => {
    const p = describeInvoicePayment(
      invoice({ paymentMethod: "usdc_base", paymentNetwork: "eip155:8453", paymentTx: "0xabc", paymentPayer: "0xPayer" }),
      [base],
      now,
    );
    expect(p).toMatchObject({ method: "USDC on Base", usdc: "10.30 USDC", payer: "0xPayer", ledgerEntryId: null });
    expect(p.transaction).toEqual({ hash: "0xabc", url: "https://basescan.org/tx/0xabc", network: "Base" });
  });

  it("on a network without an explorer (the devnet) the hash stands alone", () => {
    const p = describeInvoicePayment(invoice({ paymentMethod: "usdc_base", paymentNetwork: devBase.network, paymentTx: "0xdef" }), [devBase], now);
    expect(p.transaction).toEqual({ hash: "0xdef", url: null, network: "Base (devnet)" });
  });

  it("an unpaid USDC invoice has its amount and no transaction yet; past its expiry it reads expired", () => {
    const unpaid = invoice({ status: "unpaid", paidAt: null, completedAt: null, paymentMethod: "usdc_solana" });
    expect(describeInvoicePayment(unpaid, [base], now)).toMatchObject({ method: "USDC on Solana", status: "unpaid", transaction: null, usdc: "10.30 USDC" });
    expect(describeInvoicePayment(unpaid, [base], new Date("2026-03-02T00:00:00Z")).status).toBe("expired");
  });

  it("a USDC invoice a gift card paid part of asks the rest in USDC; one it paid in full, none and no transaction", () => {
    const part = invoice({ status: "unpaid", paidAt: null, completedAt: null, paymentMethod: "usdc_base", giftCardCents: 400n });
    expect(describeInvoicePayment(part, [base], now)).toMatchObject({
      method: "Gift card, the rest in USDC on Base",
      priceCents: 1030n,
      giftCardCents: 400n,
      usdc: "6.30 USDC",
    });
    const whole = invoice({ paymentMethod: "usdc_base", giftCardCents: 1030n, paymentNetwork: "gift_card", paymentTx: "gift_card:inv_1" });
    expect(describeInvoicePayment(whole, [base], now)).toMatchObject({ usdc: "0.00 USDC", transaction: null, payer: null, ledgerEntryId: null });
  });
});

describe("a payment method's name", () => {
  it("is the balance, or USDC on the mode's network by its name", () => {
    expect(paymentMethodLabel("balance")).toBe("Balance");
    expect(paymentMethodLabel(null)).toBe("Balance");
    expect(paymentMethodLabel("gift_card")).toBe("Gift card, the rest from the balance");
    expect(paymentMethodLabel("usdc_arbitrum")).toBe("USDC on Arbitrum");
    expect(paymentMethodLabel("usdc_base", [devBase])).toBe("USDC on Base (devnet)");
    expect(paymentMethodLabel("balance", [], true)).toBe("Gift card, the rest from the balance");
    expect(paymentMethodLabel("usdc_polygon", [], true)).toBe("Gift card, the rest in USDC on Polygon");
  });
});

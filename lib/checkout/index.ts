// An invoice, whole: creation, payment and what a settlement does to it, status, the merchant's views, both APIs' routes. What other features import from it.
export { createInvoice, type CreatedInvoice } from "./create-invoice";
export { createInvoiceBody, MAX_ITEMS, MAX_INVOICE_USDC, MIN_INVOICE_USDC, type CartItem } from "@/lib/api/x402";
export { newId, isInvoiceId } from "@/lib/platform/ids";
export { claimForPayment, releaseClaim, markPaid, getInvoice, payability, expireInvoices, denyUnpaid, type InvoiceRow } from "./payment";
export { getInvoiceWithOrders, type InvoiceWithOrders, type OrderRow } from "./status";
export { effectiveStatus } from "./effective-status";
export { listWalletOrders, type WalletOrder } from "./wallet-orders";
export { invoiceClaim, invoicePaymentEffect } from "./payment-effect";
export { listWalletEsims, type WalletEsim, type WalletEsimBundle } from "./wallet-esims";
export { canSeeCodes, getStatus, type InvoiceView, type Viewer } from "./view";
export { effectiveOrder } from "./effective-status";
export { merchantStatus } from "./merchant-invoice-view";
export { getMerchantOrder } from "./merchant-invoices";
export { settlementEffects } from "./settlement-effects";
export { createInvoiceResponse, readCreateBody } from "./x402/invoice";
export { payInvoice } from "./x402/pay";
export { invoiceStatusResponse, requireInvoiceId } from "./x402/status";
export { announceFinalInvoice } from "./final-invoice-webhook";

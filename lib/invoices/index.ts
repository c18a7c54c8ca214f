export { createInvoice, type CreatedInvoice } from "./create-invoice";
export { createInvoiceBody, MAX_ITEMS, MAX_INVOICE_USDC, MIN_INVOICE_USDC, type CartItem } from "./cart";
export { InvoiceError } from "./invoice-error";
export { newId, isInvoiceId } from "./ids";
export { claimForPayment, releaseClaim, markPaid, getInvoice, payability, expireInvoices, cancelUnpaid, type InvoiceRow } from "./payment";
export { getInvoiceWithOrders, visibleStatus, type InvoiceWithOrders, type OrderRow } from "./status";
export { listWalletOrders, type WalletOrder } from "./wallet-orders";
export { invoiceClaim, invoicePaymentEffect } from "./payment-effect";
export { listWalletEsims, type WalletEsim, type WalletEsimBundle } from "./wallet-esims";

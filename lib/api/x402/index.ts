// What the /x402 API's routes share: fees, wallet sign-in, paid answers, errors, schemas, limits, discovery. What other features import from it.
export { AFFILIATE_CODE, MAX_INVOICE_USDC, MAX_ITEMS, MIN_INVOICE_USDC, SHOPPER_PAYMENT_METHODS, createInvoiceBody, type CartItem } from "./cart";
export { discoveryExtensions } from "./discovery";
export { x402ErrorCodes } from "./errors";
export { answerUnsettled } from "./exchange-answer";
export { nextStep } from "./next-step";
export { answerPayer, deleteStalePaidAnswers, earlierAnswer, keepAnswer, paidAnswerKey } from "./paid-answers";
export { decodePaymentHeader, paymentHeader } from "./payment-header";
export { withWallet } from "./with-wallet";
export { errorResponse, paymentRequiredResponse, withX402Fee, x402Headers } from "./with-x402-fee";
export { RateLimitedError, checkX402Limits, clientIp } from "./x402-limits";
export { requirementsAnsweredOk } from "./requirements-ok";
export { invoicePayBody, invoiceStatusQuery, myOrdersQuery, productDetailQuery, x402SearchQuery } from "./x402-query";
export { X402_OPENAPI_PATH, X402_ROUTES, type X402RouteId } from "./x402-routes";
export * as x402Schemas from "./x402-schemas";
export type { DeliveryStatus, InvoiceErrorCode } from "./x402-schemas";

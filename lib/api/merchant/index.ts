// What the merchant API's routes share: the envelope, errors, schemas, Idempotency-Key, paging, products. What other features import from it.
export { V2Error, invalidParam, missingParam, notFound, ok } from "./envelope";
export { v2ErrorCodes, v2ErrorOf } from "./errors";
export { deleteStaleIdempotencyKeys, idempotent, type IdempotencyKey, type StoredAnswer } from "./idempotency";
export { nextOffsetPage, nextPage } from "./paging";
export { merchantPriceCents, readQuery } from "./products";
export { rateLimitedResponse } from "./rate-limited";
export { type MerchantContext } from "./route";
export * as schemas from "./schemas";
export {
  DENIED_REASONS,
  balanceSchema,
  invoiceItem,
  invoiceSchema,
  listDeliveriesQuery,
  listEsimsQuery,
  listGiftCardBatchesQuery,
  listInvoicesQuery,
  listOrdersQuery,
  orderSchema,
  productSchema,
} from "./schemas";

export {
  BATCH_MAX_QUANTITY,
  batchCards,
  checkBatchRequest,
  createBatch,
  getBatch,
  issueBatch,
  issueDueBatches,
  listBatches,
  type Batch,
  type IssuedCard,
} from "./batches";
export { cardByCode, cardStatement, holdForInvoice, refundOrderToCards, refundToCards, releaseHolds, spendHolds, type CardStatement } from "./cards";
export { CODE_BITS, formatCode, newGiftCardCode, normalizeCode } from "./codes";

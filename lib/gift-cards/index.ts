export { cardByCode, cardStatement, holdForInvoice, refundOrderToCards, refundToCards, releaseHolds, spendHolds, type CardStatement } from "./cards";
export { CODE_BITS, formatCode, newGiftCardCode, normalizeCode } from "./codes";

// The shop's own gift cards: codes by keyed hash, value held per invoice, refunds to a card. What other features import from it.
export {
  cardByCode,
  cardStatement,
  holdForInvoice,
  issueOrderCard,
  refundOrderToCards,
  refundToCards,
  releaseHolds,
  spendHolds,
  type CardStatement,
} from "./cards";
export { CODE_BITS, formatCode, mintCode, newGiftCardCode, normalizeCode, openSealedCode, type MintedCode, type SealedCode } from "./codes";
export { openCode } from "./codes";
export { countedGuess, isWrongCode } from "./guess";
export { cardCurrency, centsForMinor, formatCardValue, parseCardValue, type CardCurrency } from "./money";

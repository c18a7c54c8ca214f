export { MAX_TOPUP_CENTS, MIN_TOPUP_CENTS, topupAmount } from "./amount";
export { ledgerPage, ledgerPageQuery, LEDGER_PAGE_SIZE, type LedgerRow } from "./ledger-page";
export { getTopup, listTopups, recordTopup, topupIdOf, topupPaymentEffect, type Topup, type TopupPayment } from "./topups";

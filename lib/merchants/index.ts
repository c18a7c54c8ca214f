// A merchant's account: API keys, the balance ledger, top-ups, gift card batches, the admin token. What other features import from it.
export {
  authenticate,
  CREDENTIAL_CACHE_MS,
  forgetCredentials,
  createMerchant,
  getMerchant,
  issueCredential,
  listCredentials,
  parseAuthorization,
  recordCredentialUse,
  revokeCredential,
  setMerchantAccess,
  verifyCredential,
  type AccountHolder,
  type Credential,
  type IssuedCredential,
  type Merchant,
  type NewMerchant,
  type Presented,
} from "./merchants";
export { balanceOf, BalanceTooLow, credit, debit, listLedger, purchase, refund, type LedgerEntry } from "./ledger";
export { adminToken, isAdmin } from "./admin-token";
export {
  BATCH_MAX_QUANTITY,
  batchCards,
  createBatch,
  getBatch,
  issueBatch,
  issueDueBatches,
  listBatches,
  type Batch,
  type IssuedCard,
} from "./gift-card-batches";
export {
  BALANCE_METHODS,
  PAYMENT_METHODS,
  COIN_METHODS,
  isAddressOnlyMethod,
  isEtherMethod,
  methodCoin,
  methodNetworkKey,
  unavailableMethod,
  type PaymentMethod,
} from "./payment-methods";
export { newWebhookSecret } from "./secrets";
export { getTopup, recordTopup, topupAmount, topupIdOf, topupPaymentEffect } from "./topups";
export { refundOrderToBalance } from "./refund-order";

export {
  authenticate,
  createMerchant,
  getMerchant,
  issueCredential,
  listCredentials,
  parseAuthorization,
  recordCredentialUse,
  revokeCredential,
  setMerchantAccess,
  verifyCredential,
  type Credential,
  type IssuedCredential,
  type Merchant,
  type NewMerchant,
  type Presented,
} from "./merchants";
export { balanceOf, BalanceTooLow, credit, debit, formatCents, listLedger, refund, type LedgerEntry } from "./ledger";

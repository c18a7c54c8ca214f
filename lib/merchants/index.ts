export {
  authenticate,
  AuthError,
  createMerchant,
  getMerchant,
  issueCredential,
  listCredentials,
  parseAuthorization,
  revokeCredential,
  setMerchantAccess,
  type Credential,
  type IssuedCredential,
  type Merchant,
  type NewMerchant,
} from "./merchants";
export { balanceOf, BalanceTooLow, credit, debit, formatCents, listLedger, refund, type LedgerEntry } from "./ledger";

// The x402 exchange, settlements, the facilitator, the chain's verdicts. What other features import from it.
export { viemChain } from "./chain";
export { errorText, nonceKey, replacementFees, type SenderSync } from "./evm-signer";
export { exchange, findMatchingRequirement, type ExchangeResult } from "./exchange";
export { solanaSignerFromSecret } from "./facilitator";
export { drainSettlements } from "./in-flight";
export { nonceUse, type NonceUse } from "./nonce-proof";
export { getPayments, senderSync, type Payments } from "./payments";
export {
  deleteStaleSettlements,
  reconcileSettlements,
  releaseLeases,
  undecidedSettlements,
  type SettlementEffect,
  type SettlementEffects,
} from "./settlements";
export { chainVerdict } from "./verdict";
export { FORWARDER_FACTORY, forwarderAddress, invoiceSalt, readClient } from "./forwarders";
export {
  addressWarnings,
  coinToCents,
  FLUSH_MIN_CENTS,
  releaseWatchers,
  watchAddresses,
  FLUSH_STUCK_MS,
  type AddressEffect,
  type GasSender,
  type PaymentAddressRow,
  type WatchReport,
} from "./address-watch";
export { shopTokenAccount, solanaPayUri, solanaReference, watchSolanaReferences } from "./solana-pay";

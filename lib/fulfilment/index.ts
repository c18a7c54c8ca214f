// Delivering orders through providers, announcing when an invoice's orders have ended, refunds on chain. What other features import from it.
export {
  claimDueOrders,
  drainDue,
  fulfilOrder,
  DEFAULT_LOCK_MS,
  releaseClaims,
  releaseDeadClaims,
  PROVIDER_TIMEOUT_MS,
  type ClaimedOrder,
  type DrainOptions,
  type DrainResult,
  type FulfilOptions,
  type FulfilOutcome,
} from "./engine";
export { MAX_ATTEMPTS, retryDelayMs } from "./backoff";
export { refundFailedOrders, refundDue, type Payout, type Refund } from "./refund";
export { payAddressRefunds, addressRefundWarnings, releaseAddressRefunds } from "./address-refunds";
export { listRefundsDue, markRefundPaid, type RefundDue } from "./refunds-due";
export { startWorker, kickWorker, type Worker, type WorkerOptions } from "./worker";
export { providerFor, type UpstreamProvider } from "./providers/provider-for";
export { createDemoProvider, demoProvider } from "./providers/demo";
export type { Delivery, FulfilmentProvider, OrderToFulfil, Redemption } from "./providers/types";
export { chainPayout } from "./chain-payout";
export { devnetPayout } from "./devnet-payout";

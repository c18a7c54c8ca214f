import { getBase58Decoder, getBase64Encoder, signBytes } from "@solana/kit";
import { errorText, redactUrls } from "@/lib/platform/errors";
import { metrics } from "@/lib/platform/metrics";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import type { Db } from "@/lib/platform/db";
import type { EvmNetwork, SolanaNetwork } from "@/lib/platform/networks";
import { blockBeforeSending, confirmMined, confirmTransfer } from "./confirm";
import { broadcasts, unanswered, type Broadcasts, type Unanswered } from "./evm-signer";
import { paymentIdentity, PaymentIdentityError, type PaymentIdentity } from "./identity";
import { acceptingSettlements, trackSettlement } from "./in-flight";
import { readPayerFunds } from "./payer-funds";
import type { Payments } from "./payments";
import { Slots, type Slot } from "./slots";
import { confirmSolanaPayment } from "./solana-proof";
import {
  beginSettlement,
  extendLease,
  finishSettlement,
  LEASE_MS,
  type Refusal,
  type Settlement,
  type SettlementEffects,
  type SettlementPurpose,
} from "./settlements";

/**
 * The one x402 exchange of every paid route (the micro-fee routes, invoice payment, balance top-up), after the route
 * has decoded a payment and matched it to one of its requirements:
 *
 * 1. the payment's identity is read (EVM authorizations valid for too long are refused) and the payment is verified
 *    (settlement verifies it again itself), its payer's funds read from the chain meanwhile: one that fails, or whose
 *    funds the node does not tell, is refused with nothing recorded;
 * 2. it is recorded before anything else, with what it pays for claimed in the same transaction: a payment already
 *    used, or being settled by this or another server, is refused, and so is one that the payer's funds do not cover
 *    beside the payer's other payments in flight (it could not land);
 * 3. `beforeSettle` runs (the fee routes' handler: its refusal cancels the payment, which may then be offered again);
 * 4. it is settled, the record's hold extended meanwhile. A failure for the shop's own reasons (nothing was sent and
 *    the payment still verifies) is tried again while the payment is valid;
 * 5. an EVM payment counts once the chain shows its transfer to payTo in a block at the network's depth
 *    (`confirmations`; a remote facilitator's success is always checked so); a remote facilitator's Solana success,
 *    once the chain shows the payment's own transaction confirmed and paying payTo, whichever it named (solana-proof.ts);
 * 6. the outcome is recorded once: settled (its effect applied in the same transaction), failed (nothing was sent: the
 *    payment is refused, its claim undone), or pending (something was sent and may still land: the reconciler decides
 *    from the chain; a payment it finds can never land failed after it was accepted, see Failure).
 */
export type ExchangeInput = {
  db: Db;
  payments: Payments;
  payload: PaymentPayload;
  requirement: PaymentRequirements;
  purpose: SettlementPurpose;
  reference: string;
  details?: Record<string, string>;
  /** Takes what the payment is for, under the settlement's id, in the transaction that records it; a reason refuses. */
  claim?: (tx: Db, settlementId: string) => Promise<string | null>;
  effects: SettlementEffects;
  /** Runs once the payment is recorded and before it is settled, with the payer it verified as; false cancels it. */
  beforeSettle?: (payer: string | undefined) => Promise<boolean>;
};

export type ExchangeResult =
  | { kind: "invalid"; reason: string; payer?: string }
  | { kind: "refused"; refusal: Refusal }
  | { kind: "unavailable" }
  | { kind: "cancelled" }
  | { kind: "settled"; settle: SettleResponse; settlement: Settlement }
  | { kind: "failed"; settle: SettleResponse; reason: string }
  | { kind: "pending"; settle: SettleResponse; settlement: Settlement | null };

const MAX_ATTEMPTS = 3;
/** How long a settled EVM payment's block is waited for to reach the network's depth before it is left to the reconciler. */
const CONFIRM_TIMEOUT_MS = 30_000;
/**
 * How long a remote facilitator's Solana transaction is looked for on the shop's node: the facilitator answers once it
 * saw it confirmed, so a node a few slots behind has it within a second or two; beyond, the reconciler decides.
 */
const SOLANA_CONFIRM_TIMEOUT_MS = 5_000;
/** A retry is only started while the payment stays valid at least this long. */
const RETRY_MARGIN_MS = 15_000;
/** A check the node did not answer (each call of it already tried a few times by viem) is made this many times at most. */
const CHECK_ATTEMPTS = 3;
const CHECK_PAUSE_MS = 500;

/** What the payer is told when the node never answered the shop's checks: the payment itself may well be good. */
export const NODE_UNANSWERED =
  "The network's node did not answer while this payment was checked, so it was not taken: nothing was charged. Send it again in a few seconds.";

/**
 * In-process EVM payments checked and sent at a time, per process. From its verification until its transaction is
 * sent a payment takes one of these places; the others wait their turn in order. Without it, a burst of a hundred
 * payments advances a step of each in turn (verify all, record all, estimate all…), so that no transaction is sent
 * before the last payment is checked and all of them miss the next block; with it the first ones are sent within
 * milliseconds while the rest are still arriving. Several at once, so that the round trips to the node and the
 * database overlap and a wallet's transactions still go out in groups.
 */
const SENDING_AT_ONCE = 8;
const globalForSending = globalThis as typeof globalThis & { __storefrontSending?: Slots };
const sending = (globalForSending.__storefrontSending ??= new Slots(SENDING_AT_ONCE));

/** The payments holding a place to be checked and sent, and those waiting for one. */
export function paymentsSending(): { held: number; queued: number } {
  return { held: sending.held, queued: sending.queued };
}

export async function exchange(input: ExchangeInput): Promise<ExchangeResult> {
  const { payments, payload, requirement } = input;
  if (!acceptingSettlements()) return { kind: "unavailable" };
  let identity: PaymentIdentity;
  try {
    identity = paymentIdentity(payload, requirement);
  } catch (err) {
    if (err instanceof PaymentIdentityError) return { kind: "invalid", reason: err.message };
    throw err;
  }
  // Solana's facilitator sends and confirms in one call, and a remote facilitator is its own: neither is held here.
  const slot = payments.inProcess && identity.authorization ? await sending.take() : undefined;
  try {
    // A shutdown may have begun while the payment waited for its place.
    if (!acceptingSettlements()) return { kind: "unavailable" };
    return await checkAndSettle(input, identity, slot);
  } finally {
    slot?.release();
  }
}

async function checkAndSettle(input: ExchangeInput, identity: PaymentIdentity, slot: Slot | undefined): Promise<ExchangeResult> {
  const { db, payments, payload, requirement } = input;
  // The payer's funds, read beside the verification (one read, no wait of its own): the verification sees the balance
  // alone, the same for every payment of the payer checked at once, so the record weighs it against the payer's
  // payments in flight (beginSettlement).
  const funds = readPayerFunds(payments.networks, requirement, identity);
  // A block seen before anything is sent: the payment's events are looked for from there (read first, so that it is
  // older than whatever the verification below sees).
  const network = evmNetworkOf(payments, requirement.network);
  const sentBlock = network && identity.authorization ? await blockBeforeSending(network) : undefined;
  // Verified before anything is recorded or claimed (signature, payer, amount, payTo, asset, validity, the payer's
  // balance and the nonce unspent, by a simulation of the transfer): a payment that fails leaves nothing behind.
  // Settlement verifies it again itself.
  const verified = await verifyPayment(payments, payload, requirement);
  if (!verified.isValid)
    return { kind: "invalid", reason: verified.unanswered ? NODE_UNANSWERED : (verified.invalidReason ?? "invalid payment"), payer: verified.payer };
  // Never sent blind: funds the node would not tell are a refusal, nothing charged.
  const read = await funds();
  if ("unanswered" in read) return { kind: "invalid", reason: NODE_UNANSWERED, payer: verified.payer };
  if ("unreadable" in read) return { kind: "invalid", reason: read.unreadable, payer: verified.payer };

  const expected = await expectedTransaction(payments, identity);
  const begun = await beginSettlement(
    db,
    {
      ...identity,
      payer: verified.payer || identity.payer || read.funds.payer,
      funds: read.funds,
      purpose: input.purpose,
      reference: input.reference,
      amountUsdc: BigInt(requirement.amount),
      details: { ...input.details, ...(identity.solana ? { blockhash: identity.solana.blockhash } : {}) },
      transaction: expected,
      payTo: requirement.payTo,
      sentBlock,
    },
    input.claim,
  );
  if ("refused" in begun) return { kind: "refused", refusal: begun };
  const { settlement } = begun;

  if (
    input.beforeSettle &&
    !(await input.beforeSettle(verified.payer).catch(async (err: unknown) => {
      await finishSettlement(db, settlement.id, { status: "failed", error: "the paid request failed before settlement", refused: true }, input.effects);
      throw err;
    }))
  ) {
    await finishSettlement(
      db,
      settlement.id,
      { status: "failed", error: "the paid request was refused, so the payment was not settled", refused: true },
      input.effects,
    );
    return { kind: "cancelled" };
  }
  return trackSettlement(timed(requirement.network, () => settleOnce(input, settlement, identity, expected, slot)));
}

/** Runs a settlement, its duration counted in the settlement metric by network and outcome. */
async function timed(network: string, work: () => Promise<ExchangeResult>): Promise<ExchangeResult> {
  const timer = metrics().settlementSeconds.startTimer({ network });
  const outcome = await work();
  timer({ outcome: outcome.kind });
  return outcome;
}

async function settleOnce(
  input: ExchangeInput,
  settlement: Settlement,
  identity: PaymentIdentity,
  expected: string | undefined,
  slot: Slot | undefined,
): Promise<ExchangeResult> {
  const { db, payments, payload, requirement, effects } = input;
  // Once its transaction is sent the payment gives up its place: the wait for the receipt holds none.
  const broadcast: Broadcasts = { sent: [], onSent: slot?.release };
  const sent = broadcast.sent;
  const heartbeat = setInterval(() => void extendLease(db, settlement.id).catch(() => undefined), LEASE_MS / 3);
  heartbeat.unref();
  let result: SettleResponse;
  // Whether the node left the last attempt's checks unanswered (then its refusal is not the payer's fault).
  let nodeSilent = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const calls: Unanswered = { count: 0 };
      result = await broadcasts.run(broadcast, () => unanswered.run(calls, () => settlePayment(payments, payload, requirement)));
      nodeSilent = calls.count > 0;
      // A transaction dropped for good (another used its nonce) is as if nothing was sent: the payment is sent again.
      if (result.success || sent.length > 0 || (result.transaction && !broadcast.dropped?.some((hash) => hash === result.transaction))) break;
      // Nothing was sent. If the payment still verifies, the failure was the shop's (an RPC, a nonce): try again.
      if (attempt >= MAX_ATTEMPTS || Date.now() > identity.validUntil.getTime() - RETRY_MARGIN_MS) break;
      const check = await verifyPayment(payments, payload, requirement);
      nodeSilent = check.unanswered === true;
      if (!check.isValid) break;
      await new Promise((r) => setTimeout(r, 300 * attempt));
    }
  } finally {
    clearInterval(heartbeat);
  }

  // A replacement (the same transfer sent again at a higher fee) was mined: the settlement names that transaction.
  if (broadcast.landed) result = { ...result, transaction: broadcast.landed };
  // A success counts once the chain agrees; until then the payment is pending, for the reconciler to decide.
  const checked = result.success ? await chainDoubt(payments, identity, requirement, result.transaction, broadcast) : undefined;
  // The chain showed the payment carried by another transaction than the one answered: the settlement names that one.
  if (checked?.transaction) result = { ...result, transaction: checked.transaction };
  const doubt = checked?.doubt;
  if (doubt) {
    const pending = await finishSettlement(db, settlement.id, { status: "pending", error: doubt, transaction: result.transaction }, effects);
    return { kind: "pending", settle: { ...result, success: false, errorReason: doubt }, settlement: pending };
  }
  if (result.success) {
    const done = await finishSettlement(db, settlement.id, { status: "settled", transaction: result.transaction, payer: result.payer }, effects);
    // Already decided elsewhere (the reconciler, after this server's hold lapsed): it can only have found it landed.
    return { kind: "settled", settle: result, settlement: done ?? settlement };
  }
  const reason = result.errorReason ?? "settlement failed";
  const transaction = result.transaction || sent.at(-1) || broadcast.dropped?.at(-1) || expected;
  // In-process on EVM the shop knows whether anything was sent; otherwise something may have been. A transaction
  // taken for dropped was sent all the same: only the chain can say that it never landed (a node that lags may have
  // hidden it), so its payment stays open for the reconciler rather than being refused.
  const nothingSent = payments.inProcess && identity.authorization && sent.length === 0 && !result.transaction && !broadcast.dropped?.length;
  if (nothingSent) {
    // A refusal while the node was silent is the shop's failure, told as such (the record keeps the library's words).
    await finishSettlement(db, settlement.id, { status: "failed", error: nodeSilent ? `${reason} (the node did not answer)` : reason, refused: true }, effects);
    return { kind: "failed", settle: result, reason: nodeSilent ? NODE_UNANSWERED : reason };
  }
  const pending = await finishSettlement(db, settlement.id, { status: "pending", error: reason, transaction }, effects);
  return { kind: "pending", settle: { ...result, transaction: transaction ?? "" }, settlement: pending };
}

/**
 * Why a settlement reported successful does not count yet (`doubt`), or nothing when it does (with the `transaction`
 * that carried it when the chain shows another one than the answer named):
 * - EVM: its transfer must be in a block at the network's depth. The in-process facilitator saw the transfer in its
 *   own transaction's receipt (enough at depth 1; deeper, that block must reach the depth and stay the chain's); a
 *   remote facilitator's word is checked on chain (the transaction must carry the transfer to payTo).
 * - Solana: a remote facilitator's success counts once the chain shows the payment's own transaction paying the shop,
 *   found by its message whatever signature the answer named (a wrong one costs nothing). The in-process one sent the
 *   payer's own transaction, verified beforehand, and saw it confirmed: its word needs no check.
 */
async function chainDoubt(
  payments: Payments,
  identity: PaymentIdentity,
  requirement: PaymentRequirements,
  transaction: string,
  broadcast: Broadcasts,
): Promise<{ doubt?: string; transaction?: string }> {
  const evm = evmNetworkOf(payments, requirement.network);
  if (evm && identity.authorization && (!payments.inProcess || (evm.confirmations ?? 1) > 1)) {
    const transfer = { ...identity.authorization, to: requirement.payTo as `0x${string}`, value: BigInt(requirement.amount) };
    const confirmed =
      payments.inProcess && broadcast.mined
        ? await confirmMined(evm, broadcast.mined, CONFIRM_TIMEOUT_MS)
        : await confirmTransfer(evm, transfer, transaction as `0x${string}`, CONFIRM_TIMEOUT_MS);
    if (confirmed === "landed") return {};
    return {
      doubt: payments.inProcess
        ? "the payment's transaction did not reach the network's confirmation depth in time, or its block was reorganized away"
        : `the facilitator answered success with transaction ${transaction}, which the chain does not show carrying the transfer`,
    };
  }
  const solana = payments.inProcess ? undefined : solanaNetworkOf(payments, requirement.network);
  if (solana) {
    const sought = { payTo: requirement.payTo, amount: BigInt(requirement.amount), identity: identity.identity, validUntil: identity.validUntil };
    const carried = await confirmSolanaPayment(solana, sought, transaction, SOLANA_CONFIRM_TIMEOUT_MS);
    if (carried) return carried === transaction ? {} : { transaction: carried };
    return {
      doubt: `the facilitator answered success with transaction ${transaction}, which the chain does not show paying the shop, nor any transaction of this payment`,
    };
  }
  return {};
}

/** The Solana network of a requirement, if it is one. */
function solanaNetworkOf(payments: Payments, network: string): SolanaNetwork | undefined {
  const n = payments.networks.find((x) => x.network === network);
  return n?.kind === "solana" ? n : undefined;
}

/** The EVM network of a requirement, if it is one. */
function evmNetworkOf(payments: Payments, network: string): EvmNetwork | undefined {
  const n = payments.networks.find((x) => x.network === network);
  return n?.kind === "evm" ? n : undefined;
}

/** Solana with the in-process facilitator: the transaction's id is the fee payer's signature of its message, known before it is sent. */
async function expectedTransaction(payments: Payments, identity: PaymentIdentity): Promise<string | undefined> {
  if (!identity.solana || !payments.solanaFeePayer) return undefined;
  const signature = await signBytes(payments.solanaFeePayer.keyPair.privateKey, getBase64Encoder().encode(identity.solana.message));
  return getBase58Decoder().decode(signature);
}

/** The offered requirement a payment was made for, or undefined. */
export function findMatchingRequirement(payments: Payments, offered: PaymentRequirements[], payload: PaymentPayload): PaymentRequirements | undefined {
  const server = payments.server as unknown as {
    findMatchingRequirements(a: PaymentRequirements[], p: PaymentPayload): PaymentRequirements | undefined;
  };
  return server.findMatchingRequirements(offered, payload);
}

/**
 * The facilitator's verdict on a payment; a facilitator that fails is a refused payment, never a thrown error. A refusal
 * given while the node left some of the checks unanswered (the x402 library reads an unread payer's code as a bad
 * signature) is not a verdict: the payment is checked again, a few times over a few seconds, and if the node stays
 * silent the refusal says so (`unanswered`).
 */
export async function verifyPayment(
  payments: Payments,
  payload: PaymentPayload,
  requirement: PaymentRequirements,
): Promise<VerifyResponse & { unanswered?: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const calls: Unanswered = { count: 0 };
    const verdict = await unanswered.run(calls, () =>
      payments.server
        .verifyPayment(payload, requirement)
        .catch(
          (err: unknown): VerifyResponse =>
            ({ isValid: false, invalidReason: err instanceof Error ? errorText(err) : "verification failed", payer: undefined }) as VerifyResponse,
        ),
    );
    if (verdict.isValid || calls.count === 0) return verdict;
    if (attempt >= CHECK_ATTEMPTS) return { ...verdict, unanswered: true };
    await new Promise((r) => setTimeout(r, CHECK_PAUSE_MS * attempt));
  }
}

async function settlePayment(payments: Payments, payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleResponse> {
  try {
    return await payments.server.settlePayment(payload, requirement);
  } catch (err) {
    const e = err as { errorReason?: string; message?: string; transaction?: string; payer?: string };
    return {
      success: false,
      errorReason: redactUrls(e.errorReason ?? e.message ?? "settlement failed"),
      transaction: e.transaction ?? "",
      network: requirement.network,
      payer: e.payer,
    } as SettleResponse;
  }
}

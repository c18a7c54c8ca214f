import { createHash } from "node:crypto";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address, createSolanaRpc, getBase64Encoder, getTransactionDecoder, type Signature } from "@solana/kit";
import type { SolanaNetwork } from "@/lib/platform/networks";
import { SOLANA_PAYMENT_LIFETIME_MS } from "./identity";

/**
 * What proves that a Solana payment reached the shop: a successful transaction, at the `confirmed` commitment, whose
 * token balances (the node's `preTokenBalances`/`postTokenBalances`, read by the validator before and after it ran)
 * show the network's USDC owned by payTo rising by the amount. A signature status says only that some transaction
 * landed; a facilitator's word says nothing at all, not even which transaction carried the payment: the payment is
 * found by its identity among the recent transactions of the shop's token account (findSolanaPayment).
 */

/** Where a payment must arrive, and how much; with `identity`, the transaction must be this very payment's. */
export type SolanaExpectedTransfer = {
  payTo: string;
  amount: bigint;
  /** The payment's identity (the sha256 of its message, see identity.ts): set, another transaction does not count. */
  identity?: string;
};

/**
 * - landed: it succeeded and paid the shop;
 * - absent: the node has no such transaction at `confirmed` (`found: false`), or it failed or did not pay the shop
 *   (`found: true`, final: a confirmed transaction does not change), with the reason in words; `other` when it is
 *   another payment's (or no payment's) transaction, which says nothing of this payment;
 * - unknown: no answer to go by (the call failed, or the node gave no meta).
 */
export type SolanaLanding = { outcome: "landed" } | { outcome: "absent"; found: boolean; why: string; other?: true } | { outcome: "unknown" };

type UiTokenBalance = { mint: string; owner?: string; uiTokenAmount: { amount: string } };
/** The parts of a getTransaction answer the decision reads (any encoding: the meta is the same). */
export type ConfirmedTransaction = {
  meta: { err: unknown; preTokenBalances?: readonly UiTokenBalance[] | null; postTokenBalances?: readonly UiTokenBalance[] | null } | null;
  /** The transaction's message bytes, when the answer carried them (base64 encoding). */
  messageBytes?: Uint8Array;
};

/** USDC of `mint` held by token accounts `owner` owns, in a list of token balances (none listed: 0). */
function heldBy(balances: readonly UiTokenBalance[] | null | undefined, mint: string, owner: string): bigint {
  let total = 0n;
  for (const b of balances ?? []) if (b.mint === mint && b.owner === owner) total += BigInt(b.uiTokenAmount.amount);
  return total;
}

const json = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? String(x) : x));

/**
 * Decides from one transaction as the node answered it (null: it has none by that signature). Balances are summed by
 * owner and mint, so that the shop's token account counts whatever its index in the transaction; one missing before
 * the transaction (created by it) held 0.
 */
export function judgeTransaction(tx: ConfirmedTransaction | null, mint: string, expected: SolanaExpectedTransfer): SolanaLanding {
  if (!tx) return { outcome: "absent", found: false, why: "the node has no confirmed transaction with this signature" };
  if (!tx.meta) return { outcome: "unknown" };
  // Looked at first: another transaction's failure is not this payment's.
  if (expected.identity !== undefined && tx.messageBytes && createHash("sha256").update(tx.messageBytes).digest("hex") !== expected.identity) {
    return { outcome: "absent", found: true, other: true, why: "the transaction is not this payment's (its message is another one)" };
  }
  if (tx.meta.err !== null && tx.meta.err !== undefined) return { outcome: "absent", found: true, why: `the transaction failed: ${json(tx.meta.err)}` };
  const received = heldBy(tx.meta.postTokenBalances, mint, expected.payTo) - heldBy(tx.meta.preTokenBalances, mint, expected.payTo);
  if (received >= expected.amount) return { outcome: "landed" };
  return {
    outcome: "absent",
    found: true,
    why:
      received > 0n
        ? `the transaction paid the shop ${received} atomic USDC, less than the ${expected.amount} due`
        : "the transaction succeeded but paid nothing to the shop's USDC account",
  };
}

const decoder = getTransactionDecoder();
const base64 = getBase64Encoder();

/**
 * Whether the transaction `signature` paid the shop, from the network's node at the `confirmed` commitment. A call
 * that fails is "unknown": nothing is decided from an unanswered call.
 */
export async function solanaTransferLanded(n: SolanaNetwork, signature: string, expected: SolanaExpectedTransfer): Promise<SolanaLanding> {
  let tx: ConfirmedTransaction | null;
  try {
    const answer = await createSolanaRpc(n.rpcUrl)
      .getTransaction(signature as Signature, { encoding: "base64", commitment: "confirmed", maxSupportedTransactionVersion: 0 })
      .send();
    tx = answer && { meta: answer.meta, messageBytes: new Uint8Array(decoder.decode(base64.encode(answer.transaction[0])).messageBytes) };
  } catch {
    return { outcome: "unknown" };
  }
  return judgeTransaction(tx, n.usdc.mint, expected);
}

/**
 * A payment looked for by what it is: its identity, where it must arrive and how much, and its validUntil (the
 * payment's: its blockhash has expired by then; it was read SOLANA_PAYMENT_LIFETIME_MS before, and nothing was sent
 * before that), which bounds when it can have landed.
 */
export type SolanaPaymentSought = SolanaExpectedTransfer & { identity: string; validUntil: Date };

/**
 * - landed: by `transaction`, which succeeded and paid the shop;
 * - failed: its own transaction is confirmed and failed or did not pay the shop: it can never land (the same message
 *   is never processed twice);
 * - absent: neither the transaction named (`why` says what it is) nor any recent one of the shop's token account is it;
 * - unknown: no answer to go by (a call failed, a transaction listed or named was not served, or there was more to
 *   look through than a search reads).
 */
export type SolanaFinding =
  | { outcome: "landed"; transaction: string }
  | { outcome: "failed"; transaction: string; why: string }
  | { outcome: "absent"; why?: string }
  | { outcome: "unknown" };

/** The signatures of the shop's token account one search lists at most (pages of a node's largest, 1,000)... */
const SEARCH_PAGE = 1_000;
const SEARCH_PAGES = 5;
/** ...and the transactions among them it fetches at most, so many at a time. */
const SEARCH_FETCHES = 200;
const FETCHES_AT_ONCE = 8;
/** A block's time is the validators' estimate: a payment's transaction is looked for this much beyond its window. */
const BLOCK_TIME_MARGIN_MS = 60_000;

/**
 * Finds a payment on chain, whatever transaction a facilitator named: first `named` (the id the shop computed, or the
 * one a facilitator answered), then the recent transactions of the shop's USDC account (payTo's associated token
 * account: where an x402 payment must arrive), each fetched and judged. Only a transaction whose message is the
 * payment's own (its identity, the hash of the message the payer signed) counts, for or against it: "absent" and
 * "unknown" never prove that it will not land. `others` keeps the transactions found to be others' across the looks
 * of one wait (a confirmed transaction does not change), so that each is fetched once.
 */
export async function findSolanaPayment(n: SolanaNetwork, sought: SolanaPaymentSought, named?: string, others = new Set<string>()): Promise<SolanaFinding> {
  const byName = named ? await namedTransaction(n, sought, named) : undefined;
  if (byName?.outcome === "landed" || byName?.outcome === "failed") return byName;
  // Searched even when the named one is not known yet: the payment may be found all the same.
  const found = await searchShopAccount(n, sought, others, named).catch((): SolanaFinding => ({ outcome: "unknown" }));
  if (found.outcome !== "absent") return found;
  return byName?.outcome === "unknown" ? byName : { outcome: "absent", why: byName?.why };
}

/** A named transaction, judged: this payment's (landed or failed), or not (absent, with what it is). */
async function namedTransaction(n: SolanaNetwork, sought: SolanaPaymentSought, signature: string): Promise<SolanaFinding> {
  let status;
  try {
    [status] = (
      await createSolanaRpc(n.rpcUrl)
        .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
        .send()
    ).value;
  } catch {
    return { outcome: "unknown" };
  }
  if (!status) return { outcome: "absent", why: `the node has no transaction ${signature}` };
  // Processed only: it may yet be confirmed. Confirmed yet not served (another node behind a load balancer, a node
  // that keeps statuses longer than transactions): asked again later.
  if (status.confirmationStatus === "processed") return { outcome: "unknown" };
  const landing = await solanaTransferLanded(n, signature, sought);
  if (landing.outcome === "absent" && !landing.found) return { outcome: "unknown" };
  return findingOf(signature, landing);
}

/** What a transaction the node served says of the payment: it is its own (landed or failed), or another's (absent). */
function findingOf(transaction: string, landing: SolanaLanding): SolanaFinding {
  if (landing.outcome !== "absent") return landing.outcome === "landed" ? { outcome: "landed", transaction } : landing;
  const why = `transaction ${transaction} did not pay the shop: ${landing.why}`;
  return landing.other ? { outcome: "absent", why } : { outcome: "failed", transaction, why };
}

/**
 * Looks for the payment among the confirmed transactions of the shop's USDC account within its window, oldest first
 * (a payment lands soon after it is recorded), those judged already aside (`named`, and `others`, to which the new
 * others are added). Anything not answered, not served, or beyond the search's bounds makes the outcome unknown
 * rather than absent.
 */
async function searchShopAccount(n: SolanaNetwork, sought: SolanaPaymentSought, others: Set<string>, named?: string): Promise<SolanaFinding> {
  const rpc = createSolanaRpc(n.rpcUrl);
  // USDC is a mint of the classic token program on every network the shop takes (as its refunds assume too).
  const [account] = await findAssociatedTokenPda({ owner: address(sought.payTo), mint: address(n.usdc.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const earliest = (sought.validUntil.getTime() - SOLANA_PAYMENT_LIFETIME_MS - BLOCK_TIME_MARGIN_MS) / 1000;
  const latest = (sought.validUntil.getTime() + BLOCK_TIME_MARGIN_MS) / 1000;
  const candidates: string[] = [];
  let complete = false;
  let before: Signature | undefined;
  for (let page = 0; page < SEARCH_PAGES && !complete; page++) {
    const listed = await rpc.getSignaturesForAddress(account, { commitment: "confirmed", limit: SEARCH_PAGE, before }).send();
    for (const entry of listed) {
      const time = entry.blockTime === null ? null : Number(entry.blockTime);
      if (time !== null && time < earliest) {
        complete = true;
        break;
      }
      if ((time === null || time <= latest) && entry.signature !== named && !others.has(entry.signature)) candidates.push(entry.signature);
    }
    if (listed.length < SEARCH_PAGE) complete = true;
    before = listed.at(-1)?.signature;
  }
  candidates.reverse();
  let unsure = !complete || candidates.length > SEARCH_FETCHES;
  for (let i = 0; i < Math.min(candidates.length, SEARCH_FETCHES); i += FETCHES_AT_ONCE) {
    const batch = candidates.slice(i, Math.min(i + FETCHES_AT_ONCE, SEARCH_FETCHES));
    const judged = await Promise.all(batch.map(async (signature) => ({ signature, landing: await solanaTransferLanded(n, signature, sought) })));
    for (const { signature, landing } of judged) if (landing.outcome === "absent" && landing.other) others.add(signature);
    const own = judged.find(({ landing }) => landing.outcome === "landed" || (landing.outcome === "absent" && landing.found && !landing.other));
    if (own) return findingOf(own.signature, own.landing);
    // Listed, yet not answered or not served: it may be this payment's.
    if (judged.some(({ landing }) => landing.outcome === "unknown" || (landing.outcome === "absent" && !landing.found))) unsure = true;
  }
  return unsure ? { outcome: "unknown" } : { outcome: "absent" };
}

/** How often a payment a facilitator reported is looked for while the shop's node catches up. */
const POLL_MS = 250;

/**
 * For a payment a remote facilitator reports settled (naming `named`): waits, at most `timeoutMs`, until the shop's
 * node shows it confirmed and paying the shop, and answers the transaction that carried it, whichever one the
 * facilitator named; undefined when its own transaction did not pay, or nothing was seen in time (the reconciler then
 * decides from the chain). A node a slot or two behind the facilitator's has not seen it yet: looked for again meanwhile.
 */
export async function confirmSolanaPayment(n: SolanaNetwork, sought: SolanaPaymentSought, named: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  const others = new Set<string>();
  for (;;) {
    const finding = await findSolanaPayment(n, sought, named, others);
    if (finding.outcome === "landed") return finding.transaction;
    if (finding.outcome === "failed" || Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

import { createHash } from "node:crypto";
import { createSolanaRpc, getBase64Encoder, getTransactionDecoder, type Signature } from "@solana/kit";
import type { SolanaNetwork } from "@/lib/platform/networks";

/**
 * What proves that a Solana payment reached the shop: a successful transaction, at the `confirmed` commitment, whose
 * token balances (the node's `preTokenBalances`/`postTokenBalances`, read by the validator before and after it ran)
 * show the network's USDC owned by payTo rising by the amount. A signature status says only that some transaction
 * landed; a facilitator's word says nothing at all.
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
 *   (`found: true`, final: a confirmed transaction does not change), with the reason in words;
 * - unknown: no answer to go by (the call failed, or the node gave no meta).
 */
export type SolanaLanding = { outcome: "landed" } | { outcome: "absent"; found: boolean; why: string } | { outcome: "unknown" };

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
  if (tx.meta.err !== null && tx.meta.err !== undefined) return { outcome: "absent", found: true, why: `the transaction failed: ${json(tx.meta.err)}` };
  if (expected.identity !== undefined && tx.messageBytes && createHash("sha256").update(tx.messageBytes).digest("hex") !== expected.identity) {
    return { outcome: "absent", found: true, why: "the transaction is not this payment's (its message is another one)" };
  }
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

/** How often a transaction a facilitator reported is asked for while the shop's node catches up. */
const POLL_MS = 250;

/**
 * For a transaction a remote facilitator reports settled: waits, at most `timeoutMs`, until the shop's node shows it
 * confirmed, and says whether it paid the shop ("landed"), or not or not in time ("unconfirmed"; the reconciler then
 * decides from the chain). A node a slot or two behind the facilitator's has not seen it yet: asked again meanwhile.
 */
export async function confirmSolanaTransfer(
  n: SolanaNetwork,
  signature: string,
  expected: SolanaExpectedTransfer,
  timeoutMs: number,
): Promise<"landed" | "unconfirmed"> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const landing = await solanaTransferLanded(n, signature, expected);
    if (landing.outcome === "landed") return "landed";
    if (landing.outcome === "absent" && landing.found) return "unconfirmed";
    if (Date.now() >= deadline) return "unconfirmed";
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

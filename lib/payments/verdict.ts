import { createSolanaRpc, type Blockhash } from "@solana/kit";
import {
  createPublicClient,
  http,
  parseAbi,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { viemChain } from "./chain";
import { findSolanaPayment, type SolanaFinding } from "./solana-proof";
import { carriesTransfer, findAuthorizationEvent, type ExpectedTransfer } from "./transfer-proof";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import type { ChainVerdict, Settlement } from "./settlements";

const EIP3009 = parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]);

/**
 * What the chain says of a recorded payment (see reconcileSettlements): it landed, it never can, or not known yet.
 * - EVM: it landed only by a successful transaction that carries its transfer to the shop (the token's
 *   `AuthorizationUsed` and `Transfer(payer, payTo, amount)`, see transfer-proof.ts), in a block at the network's
 *   depth (`confirmations`): the shop's own transaction, or whichever spent the authorization's nonce. A nonce spent by
 *   a transaction without that transfer (the payer's own authorization on the same nonce, a cancellation) means this
 *   one never can. Unspent in a block past `validBefore`: it never can either. Everything else waits: a receipt the
 *   node does not serve, an event not found yet, a block not deep enough.
 * - Solana: it landed only by a transaction that is confirmed, succeeded, is this payment's own (its message), and
 *   whose token balances show the amount arriving at payTo (see solana-proof.ts): the one named (its id known before
 *   it is sent, or a facilitator's answer), else one found among the shop's token account's recent transactions,
 *   whatever was named. Its own transaction confirmed without that: it never can. Found nowhere, it waits until its
 *   blockhash has expired at `finalized` (then looked for once more): only then can it never land.
 */
export async function chainVerdict(networks: readonly PaymentNetwork[], s: Settlement): Promise<ChainVerdict> {
  const n = networks.find((x) => x.network === s.network);
  if (!n) return { landed: false, final: false };
  return n.kind === "evm" ? evmVerdict(n, s) : solanaVerdict(n, s);
}

const clients = new Map<string, PublicClient>();
/** One client per network and RPC URL (its connections kept), as reconciling asks the same nodes round after round. */
export function verdictClient(n: EvmNetwork): PublicClient {
  const key = `${n.network} ${n.rpcUrl}`;
  let client = clients.get(key);
  if (!client) {
    if (clients.size > 50) clients.clear();
    client = createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl, { retryCount: 1 }) });
    clients.set(key, client);
  }
  return client;
}

/** The transfer an EVM settlement's authorization must make, from its record. */
export function expectedTransfer(n: EvmNetwork, s: Pick<Settlement, "identity" | "payTo" | "amountUsdc">): ExpectedTransfer {
  const [token, from, nonce] = s.identity.split(":") as [Address, Address, Hex];
  return { token, from, nonce, to: (s.payTo ?? n.payTo) as Address, value: s.amountUsdc };
}

/** A transaction's receipt; null only when the node has none ("not found"); any other failure throws (no answer). */
export async function receiptOrNull(client: PublicClient, hash: Hash): Promise<TransactionReceipt | null> {
  return client.getTransactionReceipt({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  });
}

/** Whether a receipt is a successful transaction that carries the expected transfer. */
export const paysShop = (receipt: TransactionReceipt, expected: ExpectedTransfer) => receipt.status === "success" && carriesTransfer(receipt.logs, expected);

async function evmVerdict(n: EvmNetwork, s: Settlement): Promise<ChainVerdict> {
  const expected = expectedTransfer(n, s);
  const client = verdictClient(n);
  const head = await client.getBlockNumber({ cacheTime: 0 });
  // The newest block deep enough that what it holds counts; what the chain says there is what is decided.
  const deep = head - BigInt(n.confirmations ?? 1) + 1n;
  const waiting = { landed: false, final: false } as const;
  if (deep < 0n) return waiting;

  // The transaction sent for it, when known (the shop's, or the one a facilitator named).
  if (s.transaction) {
    const receipt = await receiptOrNull(client, s.transaction as Hash);
    if (receipt && paysShop(receipt, expected)) {
      return receipt.blockNumber <= deep ? { landed: true, transaction: receipt.transactionHash, payer: expected.from } : waiting;
    }
  }

  const spent = await client.readContract({
    address: expected.token,
    abi: EIP3009,
    functionName: "authorizationState",
    args: [expected.from, expected.nonce],
    blockNumber: deep,
  });
  if (!spent) {
    // Unspent in a block later than validBefore: the token refuses the authorization from then on, for good.
    const block = await client.getBlock({ blockNumber: deep });
    const validBefore = BigInt(Math.floor(s.validUntil.getTime() / 1000));
    return block.timestamp >= validBefore ? { landed: false, final: true, why: "the authorization expired unused" } : waiting;
  }

  // Spent: by which transaction. Looked for from a block seen before the payment was sent (no earlier one can hold it).
  const fromBlock = s.sentBlock ?? (await blockBefore(client, new Date(s.createdAt.getTime() - 10 * 60_000), head));
  const event = await findAuthorizationEvent(client, expected, fromBlock, deep);
  // Spent, yet no event found (the node's logs lag, or the range is not served): asked again later.
  if (!event) return waiting;
  if (event.kind === "canceled") return { landed: false, final: true, why: "the payer cancelled the authorization: nothing was transferred" };
  const receipt = await receiptOrNull(client, event.transactionHash);
  if (!receipt) return waiting;
  if (paysShop(receipt, expected)) return { landed: true, transaction: receipt.transactionHash, payer: expected.from };
  return {
    landed: false,
    final: true,
    why: `the payer used this payment's authorization for another transfer (transaction ${event.transactionHash}): nothing reached the shop, and nothing was charged for it`,
  };
}

/** The last block mined before `at` (found by its timestamps; for records that do not name the block they were sent after). */
async function blockBefore(client: PublicClient, at: Date, head: bigint): Promise<bigint> {
  const target = BigInt(Math.floor(at.getTime() / 1000));
  let [low, high] = [0n, head];
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if ((await client.getBlock({ blockNumber: mid })).timestamp < target) low = mid;
    else high = mid - 1n;
  }
  return low;
}

async function solanaVerdict(n: SolanaNetwork, s: Settlement): Promise<ChainVerdict> {
  // Found by its own message whatever transaction was named (a remote facilitator's answer, or the id the shop knew).
  const sought = { payTo: s.payTo ?? n.payTo, amount: s.amountUsdc, identity: s.identity, validUntil: s.validUntil };
  const waiting = { landed: false, final: false } as const;
  const first = await findSolanaPayment(n, sought, s.transaction ?? undefined);
  if (first.outcome !== "absent") return decided(first) ?? waiting;
  const blockhash = s.details?.blockhash;
  // Without a blockhash nothing proves it can no longer land: it stays open for the operator to look at.
  if (!blockhash || !(await blockhashExpired(n, blockhash))) return waiting;
  // Looked for again once the blockhash has expired: a transaction that landed before then is seen now.
  const again = await findSolanaPayment(n, sought, s.transaction ?? undefined);
  if (again.outcome !== "absent") return decided(again) ?? waiting;
  return { landed: false, final: true, why: `the transaction's blockhash expired before it landed${again.why ? ` (${again.why})` : ""}` };
}

/** A finding that decides: landed, or its own transaction failed; undefined for one that does not (unknown). */
function decided(f: SolanaFinding): ChainVerdict | undefined {
  if (f.outcome === "landed") return { landed: true, transaction: f.transaction };
  if (f.outcome === "failed") return { landed: false, final: true, why: f.why };
  return undefined;
}

/**
 * Whether no block can take a transaction of this blockhash any more: valid at no commitment, `processed` (a blockhash
 * newer than the confirmed bank is valid there only: not valid at `confirmed` alone does not mean expired), `confirmed`
 * nor `finalized` (so that every block that could have carried the payment is final before its absence is believed).
 */
async function blockhashExpired(n: SolanaNetwork, blockhash: string): Promise<boolean> {
  const rpc = createSolanaRpc(n.rpcUrl);
  const valid = async (commitment: "processed" | "confirmed" | "finalized") =>
    (await rpc.isBlockhashValid(blockhash as Blockhash, { commitment }).send()).value;
  return !(await valid("processed")) && !(await valid("confirmed")) && !(await valid("finalized"));
}

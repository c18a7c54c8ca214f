import { createSolanaRpc, type Blockhash, type Signature } from "@solana/kit";
import { createPublicClient, http, parseAbi, parseAbiItem, type Hash } from "viem";
import { viemChain } from "./chain";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/networks";
import type { ChainVerdict, Settlement } from "./settlements";

/** Block timestamps run a little behind the wall clock: an authorization is taken as dead only this long after it expired. */
const EXPIRY_MARGIN_MS = 30_000;
/** How far back the token's AuthorizationUsed / AuthorizationCanceled events are looked for. */
const LOG_WINDOW_BLOCKS = 10_000n;

const EIP3009 = parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]);
const USED = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");
const CANCELED = parseAbiItem("event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)");

/**
 * What the chain says of a recorded payment (see reconcileSettlements): it landed, it never can, or not known yet.
 * - EVM: the token's `authorizationState(from, nonce)`. Spent: the transfer to the shop happened, in the transaction
 *   the shop sent or in anyone's (found by the token's AuthorizationUsed event), unless the payer cancelled it.
 *   Unspent: it can still land until `validBefore`, and never after.
 * - Solana: the status of the transaction (its id is known before it is sent); unknown and its blockhash expired:
 *   it never can land.
 */
export async function chainVerdict(networks: readonly PaymentNetwork[], s: Settlement, now = new Date()): Promise<ChainVerdict> {
  const n = networks.find((x) => x.network === s.network);
  if (!n) return { landed: false, final: false };
  return n.kind === "evm" ? evmVerdict(n, s, now) : solanaVerdict(n, s);
}

async function evmVerdict(n: EvmNetwork, s: Settlement, now: Date): Promise<ChainVerdict> {
  const [token, from, nonce] = s.identity.split(":") as [`0x${string}`, `0x${string}`, `0x${string}`];
  const client = createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl) });
  // Read before the receipt, so that "unspent" is not from an older block than a receipt we then miss.
  const spent = await client.readContract({ address: token, abi: EIP3009, functionName: "authorizationState", args: [from, nonce] });
  if (s.transaction) {
    const receipt = await client.getTransactionReceipt({ hash: s.transaction as Hash }).catch(() => null);
    if (receipt?.status === "success" && spent) return { landed: true, transaction: s.transaction, payer: from };
  }
  if (!spent) {
    return now.getTime() > s.validUntil.getTime() + EXPIRY_MARGIN_MS
      ? { landed: false, final: true, why: "the authorization expired unused" }
      : { landed: false, final: false };
  }
  const latest = await client.getBlockNumber();
  const fromBlock = latest > LOG_WINDOW_BLOCKS ? latest - LOG_WINDOW_BLOCKS : 0n;
  const [used] = await client.getLogs({ address: token, event: USED, args: { authorizer: from, nonce }, fromBlock, toBlock: latest });
  if (used?.transactionHash) return { landed: true, transaction: used.transactionHash, payer: from };
  const [canceled] = await client.getLogs({ address: token, event: CANCELED, args: { authorizer: from, nonce }, fromBlock, toBlock: latest });
  if (canceled) return { landed: false, final: true, why: "the payer cancelled the authorization" };
  return { landed: false, final: false };
}

async function solanaVerdict(n: SolanaNetwork, s: Settlement): Promise<ChainVerdict> {
  const rpc = createSolanaRpc(n.rpcUrl);
  if (s.transaction) {
    const [status] = (await rpc.getSignatureStatuses([s.transaction as Signature], { searchTransactionHistory: true }).send()).value;
    if (status?.err)
      return {
        landed: false,
        final: true,
        why: `the transaction failed: ${JSON.stringify(status.err, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`,
      };
    if (status && status.confirmationStatus !== "processed") return { landed: true, transaction: s.transaction };
    if (status) return { landed: false, final: false };
  }
  const blockhash = s.details?.blockhash;
  if (blockhash) {
    const { value: valid } = await rpc.isBlockhashValid(blockhash as Blockhash, { commitment: "confirmed" }).send();
    // Checked after the status: a transaction not seen while its blockhash is no longer valid can never land.
    if (!valid && s.transaction) {
      const [again] = (await rpc.getSignatureStatuses([s.transaction as Signature], { searchTransactionHistory: true }).send()).value;
      if (again && !again.err) return { landed: true, transaction: s.transaction };
    }
    if (!valid) return { landed: false, final: true, why: "the transaction's blockhash expired before it landed" };
    return { landed: false, final: false };
  }
  // Without a blockhash nothing proves it can no longer land: it stays open for the operator to look at.
  return { landed: false, final: false };
}

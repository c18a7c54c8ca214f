import { pad, parseAbi, parseEventLogs, toEventSelector, toHex, type Address, type Hex, type Log, type PublicClient } from "viem";

/**
 * What proves that an EIP-3009 payment reached the shop. A spent nonce proves nothing: the payer may sign any number
 * of authorizations with one nonce (to itself, of value 0) and spend it first with another one (see
 * research on EIP-3009). Only the token's own logs of a successful transaction do: `AuthorizationUsed(from, nonce)`
 * and, right after it, `Transfer(from, payTo, amount)`, which USDC emits in that order for one authorization.
 */

export const EIP3009_EVENTS = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);
const USED_TOPIC = toEventSelector("AuthorizationUsed(address,bytes32)");
const CANCELED_TOPIC = toEventSelector("AuthorizationCanceled(address,bytes32)");

/** One payment's authorization, and where and how much it must pay. */
export type ExpectedTransfer = { token: Address; from: Address; nonce: Hex; to: Address; value: bigint };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Whether the logs of one successful transaction hold this authorization's transfer: its `AuthorizationUsed` and, as
 * the token's very next log, a `Transfer` of exactly `value` from the payer to `to`. Paired by position, so that a
 * transaction that spends this nonce on something else while another authorization of the same payer pays the shop
 * is not taken for this payment.
 */
export function carriesTransfer(logs: readonly Log[], expected: ExpectedTransfer): boolean {
  const own = logs.filter((l) => same(l.address, expected.token));
  const events = parseEventLogs({ abi: EIP3009_EVENTS, logs: own as Log[], strict: false });
  for (const used of events) {
    if (used.eventName !== "AuthorizationUsed") continue;
    const { authorizer, nonce } = used.args;
    if (!authorizer || !nonce || !same(authorizer, expected.from) || !same(nonce, expected.nonce)) continue;
    const transfer = events.find((e) => e.logIndex === used.logIndex + 1);
    if (transfer?.eventName !== "Transfer") return false;
    const { from, to, value } = transfer.args;
    return !!from && !!to && same(from, expected.from) && same(to, expected.to) && value === expected.value;
  }
  return false;
}

/** The event that spent an authorization's nonce: used (by some transfer) or cancelled, and where. */
export type AuthorizationEvent = { kind: "used" | "canceled"; transactionHash: Hex; blockNumber: bigint };

/** The widest `eth_getLogs` range asked for at once; many providers refuse more (some less: the range then halves). */
export const LOG_RANGE_BLOCKS = 2_000n;
const MIN_LOG_RANGE_BLOCKS = 25n;
/** How a provider says a range or a result is too large for it (Alchemy, Infura, QuickNode, public nodes, anvil). */
const RANGE_REFUSED = /range|too (many|large|big)|exceed|limit|max(imum)? (block|result)|query returned more than|10000 results/i;

/**
 * Looks for the token's `AuthorizationUsed` or `AuthorizationCanceled` of (`from`, `nonce`) from `fromBlock` to
 * `toBlock`, in ranges a provider accepts: `LOG_RANGE_BLOCKS` at first, halved each time the provider refuses a range
 * as too wide. The first one found, or null. Any other failure throws (nothing is decided from an unanswered call).
 */
export async function findAuthorizationEvent(
  client: Pick<PublicClient, "request">,
  a: { token: Address; from: Address; nonce: Hex },
  fromBlock: bigint,
  toBlock: bigint,
): Promise<AuthorizationEvent | null> {
  let range = LOG_RANGE_BLOCKS;
  for (let start = fromBlock < 0n ? 0n : fromBlock; start <= toBlock;) {
    const end = start + range - 1n < toBlock ? start + range - 1n : toBlock;
    let logs: { topics: Hex[]; transactionHash: Hex | null; blockNumber: Hex | null; removed?: boolean }[];
    try {
      logs = (await client.request({
        method: "eth_getLogs",
        params: [{ address: a.token, fromBlock: toHex(start), toBlock: toHex(end), topics: [[USED_TOPIC, CANCELED_TOPIC], pad(a.from), a.nonce] }],
      })) as typeof logs;
    } catch (err) {
      if (range > MIN_LOG_RANGE_BLOCKS && RANGE_REFUSED.test(err instanceof Error ? err.message + String((err as { details?: string }).details ?? "") : "")) {
        range /= 2n;
        continue;
      }
      throw err;
    }
    const found = logs.find((l) => !l.removed && l.transactionHash && l.blockNumber);
    if (found) {
      return { kind: found.topics[0] === USED_TOPIC ? "used" : "canceled", transactionHash: found.transactionHash!, blockNumber: BigInt(found.blockNumber!) };
    }
    start = end + 1n;
  }
  return null;
}

import { AsyncLocalStorage } from "node:async_hooks";
import type { FacilitatorEvmSigner } from "@x402/evm";
import {
  concat,
  createPublicClient,
  encodeFunctionData,
  http,
  HttpRequestError,
  keccak256,
  RpcRequestError,
  TimeoutError,
  type Abi,
  type Address,
  type Hex,
  type LocalAccount,
} from "viem";
import { viemChain } from "./chain";
import type { EvmNetwork } from "@/lib/networks";

/** Runs `work` holding the lock named `key`, in this process and across servers (see lib/db/key-lock.ts). */
export type KeyLock = <T>(key: string, work: () => Promise<T>) => Promise<T>;

/** The next nonce of each sending wallet as the shop last recorded it, read and written under the wallet's lock. */
export type NonceStore = {
  get(key: string): Promise<{ next: number; updatedAt: Date } | undefined>;
  /** `undefined` forgets it: the next send asks the chain. */
  set(key: string, next: number | undefined): Promise<void>;
};

/** Wallets, their lock and their nonces: what several servers sending from one wallet share. */
export type SenderSync = { lock: KeyLock; nonces: NonceStore };

/** A recorded nonce older than this is checked against the chain (after a quiet while the chain's count is settled). */
const NONCE_FRESH_MS = 15_000;
/** Fees are asked of the chain at most this often per network. */
const FEES_FRESH_MS = 2_000;

/**
 * The hashes of the transactions sent inside one settlement (`broadcasts.run([], settle)`): sent, or sent with an answer
 * that left them unknown. After a settlement that did not report success they tell whether anything may still land,
 * with its hash, even when the settle call itself threw.
 */
export const broadcasts = new AsyncLocalStorage<Hex[]>();

/** The lock and nonce record of one sending wallet on one network (gas wallets and refund wallets alike). */
export const nonceKey = (network: string, address: Address) => `evm-nonce:${network}:${address.toLowerCase()}`;

/** A node's refusal that says the nonce was taken meanwhile (by another server, or a transaction the node knows). */
const NONCE_TAKEN = /nonce too low|nonce has already been used|already been used|replacement transaction underpriced|nonce.*(expired|low)|NONCE_EXPIRED/i;
const ALREADY_KNOWN = /already known|already imported|known transaction/i;

export type ManagedEvmSignerOptions = {
  /** Receipt wait of one settlement before it is reported pending. */
  confirmationTimeoutMs: number;
  pollingIntervalMs?: number;
};

/**
 * The facilitator's EVM signer with its own nonce management. Every transaction is signed here with a nonce taken
 * under a lock per (network, gas wallet): the lock spans only "take the next nonce, sign, send, record the next one",
 * so concurrent settlements on one server and on several servers sharing the database never take the same nonce.
 * A nonce is only recorded as used once the node accepted its transaction: a transaction the node refused leaves no
 * gap, one whose answer was lost makes the next send ask the chain (its pending count tells whether it arrived), and a
 * nonce some other sender took meanwhile is refused by the node and taken again from the chain. Gas and fees are
 * estimated before the lock, so the lock is held for a few milliseconds. With several gas wallets, each settlement
 * goes to the one with the fewest transactions in flight.
 */
export function managedEvmSigner(n: EvmNetwork, accounts: readonly LocalAccount[], sync: SenderSync, opts: ManagedEvmSignerOptions): FacilitatorEvmSigner {
  if (accounts.length === 0) throw new Error(`No gas wallet for ${n.network}`);
  const chain = viemChain(n);
  const client = createPublicClient({ chain, transport: http(n.rpcUrl), pollingInterval: opts.pollingIntervalMs ?? 250 });
  const inFlight = new Map<Address, number>(accounts.map((a) => [a.address, 0]));
  let turn = 0;
  let fees: { at: number; value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> } | undefined;
  const currentFees = () => {
    if (!fees || Date.now() - fees.at > FEES_FRESH_MS) {
      const value = client.estimateFeesPerGas();
      fees = { at: Date.now(), value };
      value.catch(() => (fees = undefined));
    }
    return fees.value;
  };

  const pick = (): LocalAccount => {
    turn = (turn + 1) % accounts.length;
    let best = accounts[turn]!;
    for (const a of accounts) if ((inFlight.get(a.address) ?? 0) < (inFlight.get(best.address) ?? 0)) best = a;
    return best;
  };

  async function send(request: { to: Address; data: Hex; gas?: bigint }): Promise<Hex> {
    const account = pick();
    inFlight.set(account.address, (inFlight.get(account.address) ?? 0) + 1);
    try {
      // Estimated first (this simulates the call): a transfer that would revert is refused here, with nothing sent.
      const [gas, fees] = await Promise.all([request.gas ?? client.estimateGas({ account, to: request.to, data: request.data }), currentFees()]);
      const key = nonceKey(n.network, account.address);
      return await sync.lock(key, async () => {
        const recorded = await sync.nonces.get(key);
        let nonce =
          recorded && Date.now() - recorded.updatedAt.getTime() < NONCE_FRESH_MS
            ? recorded.next
            : await client.getTransactionCount({ address: account.address, blockTag: "pending" });
        for (let attempt = 0; ; attempt++) {
          const serializedTransaction = await account.signTransaction({
            chainId: n.chainId,
            type: "eip1559",
            to: request.to,
            data: request.data,
            gas: (gas * 12n) / 10n,
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
            nonce,
          });
          const hash = keccak256(serializedTransaction);
          try {
            await client.sendRawTransaction({ serializedTransaction });
          } catch (err) {
            const message = errorText(err);
            if (!ALREADY_KNOWN.test(message)) {
              // The node answered with a refusal: the transaction is not in it. Anything else may have reached it.
              const refused = err instanceof RpcRequestError || (hasCode(err) && !(err instanceof HttpRequestError) && !(err instanceof TimeoutError));
              if (!refused) {
                broadcasts.getStore()?.push(hash);
                await sync.nonces.set(key, undefined);
                throw err;
              }
              if (attempt < 3 && NONCE_TAKEN.test(message)) {
                nonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
                continue;
              }
              throw err;
            }
          }
          broadcasts.getStore()?.push(hash);
          await sync.nonces.set(key, nonce + 1);
          return hash;
        }
      });
    } finally {
      inFlight.set(account.address, (inFlight.get(account.address) ?? 1) - 1);
    }
  }

  return {
    getAddresses: () => accounts.map((a) => a.address),
    readContract: (args) => client.readContract(args as Parameters<typeof client.readContract>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) =>
      send({
        to: args.address,
        data: concat([encodeFunctionData({ abi: args.abi as Abi, functionName: args.functionName, args: args.args }), args.dataSuffix ?? "0x"]),
        gas: args.gas,
      }),
    sendTransaction: (args) => send(args),
    waitForTransactionReceipt: (args) =>
      client.waitForTransactionReceipt({
        hash: args.hash,
        timeout: args.timeout ?? opts.confirmationTimeoutMs,
        pollingInterval: opts.pollingIntervalMs ?? 250,
      }),
    getCode: (args) => client.getCode(args),
  };
}

function hasCode(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RpcRequestError) return true;
    if (typeof (e as { code?: unknown }).code === "number") return true;
  }
  return false;
}

/** Everything an RPC error says, through its causes (viem and @solana/kit wrap the node's words), for matching. */
export function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 6; e = e.cause) {
    parts.push(
      e.message,
      (e as { details?: string }).details ?? "",
      JSON.stringify((e as { context?: unknown }).context ?? "", (_, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
    );
  }
  return parts.join(" ");
}

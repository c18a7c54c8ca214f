import { randomBytes } from "node:crypto";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isAddress,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { BaseError, createWalletClient, erc20Abi, getAddress, http, isAddress as isEvmAddress, publicActions, type Address, type LocalAccount } from "viem";
import { viemChain } from "@/lib/payments/facilitator";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/payments/networks";
import type { Payout } from "./refund";

/** How long a broadcast transfer is watched; below the refund lock (10 min), so a slow one is never paid twice. */
const CONFIRM_TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 250;
const MEMO_PROGRAM_ADDRESS = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

export type ChainPayoutOptions = {
  /** The networks refunds can go out on; an invoice paid on another network is refused. */
  networks: readonly PaymentNetwork[];
  /** The EVM refund wallet: holds the USDC on each EVM network and pays its own gas. */
  evmKey?: LocalAccount;
  /** The Solana refund wallet: holds the USDC. */
  solanaKey?: KeyPairSigner;
  /** Pays the Solana fee and the rent of a payer's new token account; the refund wallet itself by default. */
  solanaFeePayer?: KeyPairSigner;
  /** Runs before each EVM transfer (the devnet gives the sender gas here). */
  beforeEvmTransfer?: (n: EvmNetwork, from: Address) => Promise<void>;
  /** How long a broadcast transfer is watched before it is taken as sent. */
  confirmTimeoutMs?: number;
};

/**
 * Refunds as real USDC transfers from a refund wallet back to the payer, on the network the invoice was paid on:
 * an ERC-20 `transfer` on EVM networks, an SPL `transferChecked` on Solana (creating the payer's token account if
 * missing). Transfers on one network go one after another (the wallet's nonces).
 *
 * It throws only when nothing was sent: refused before broadcast, reverted, failed, or (Solana) expired unlanded.
 * A transfer that was broadcast but whose fate is still unknown after `confirmTimeoutMs` is returned as sent, with
 * a warning: paying it again could pay the refund twice.
 */
export function chainPayout(opts: ChainPayoutOptions): Payout {
  const timeoutMs = opts.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS;
  const queues = new Map<string, Promise<unknown>>();
  const queued = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    queues.set(key, next);
    return next;
  };

  return (to, amountAtomic) => {
    const n = opts.networks.find((x) => x.network === to.network);
    if (!n) return Promise.reject(new Error(`This shop has no network ${to.network}`));
    if (amountAtomic <= 0n) return Promise.reject(new Error(`Cannot refund ${amountAtomic} atomic USDC`));
    if (n.kind === "evm") {
      const key = opts.evmKey;
      if (!key) return Promise.reject(new Error(`no refund key for ${n.network} (set REFUND_EVM_PRIVATE_KEY)`));
      return queued(n.network, () => evmTransfer(n, key, to.payer, amountAtomic, opts.beforeEvmTransfer, timeoutMs));
    }
    const key = opts.solanaKey;
    if (!key) return Promise.reject(new Error(`no refund key for ${n.network} (set REFUND_SOLANA_PRIVATE_KEY)`));
    return queued(n.network, () => solanaTransfer(n, key, opts.solanaFeePayer ?? key, to.payer, amountAtomic, timeoutMs));
  };
}

async function evmTransfer(
  n: EvmNetwork,
  account: LocalAccount,
  payer: string,
  amount: bigint,
  before: ChainPayoutOptions["beforeEvmTransfer"],
  timeoutMs: number,
): Promise<string> {
  if (!isEvmAddress(payer, { strict: false })) throw new Error(`Not an EVM address: ${payer}`);
  const client = createWalletClient({ account, chain: viemChain(n), transport: http(n.rpcUrl), pollingInterval: POLL_MS }).extend(publicActions);
  await before?.(n, account.address);
  // Estimated (and so simulated) before it is signed: a wallet short of USDC or gas fails here, with nothing sent.
  const hash = await client
    .writeContract({ address: n.usdc.address, abi: erc20Abi, functionName: "transfer", args: [getAddress(payer), amount] })
    .catch((err: unknown) => {
      // viem's message runs to a dozen lines; the short one (with the revert reason) is what the operator needs.
      throw err instanceof BaseError ? new Error(`The refund transfer on ${n.network} could not be sent: ${err.shortMessage.replace(/\s*\n\s*/g, " ")}`, { cause: err }) : err;
    });
  let status: "success" | "reverted";
  try {
    ({ status } = await client.waitForTransactionReceipt({ hash, timeout: timeoutMs }));
  } catch (err) {
    console.warn(`[refunds] ${hash} on ${n.network} was sent but not confirmed; recorded as paid`, err);
    return hash;
  }
  if (status !== "success") throw new Error(`The refund transfer ${hash} on ${n.network} reverted`);
  return hash;
}

/** An SPL `transferChecked` from the refund wallet's token account to the payer's, created if missing. */
async function solanaTransfer(n: SolanaNetwork, owner: KeyPairSigner, feePayer: KeyPairSigner, payer: string, amount: bigint, timeoutMs: number): Promise<string> {
  if (!isAddress(payer)) throw new Error(`Not a Solana address: ${payer}`);
  const rpc = createSolanaRpc(n.rpcUrl);
  const mint = address(n.usdc.mint);
  const recipient = address(payer);
  const [source] = await findAssociatedTokenPda({ owner: owner.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [destination] = await findAssociatedTokenPda({ owner: recipient, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  // Two refunds of the same amount to the same wallet within one blockhash would otherwise be one transaction.
  const memo: Instruction = { programAddress: MEMO_PROGRAM_ADDRESS, data: new TextEncoder().encode(`refund ${randomBytes(8).toString("hex")}`) };
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({ payer: feePayer, ata: destination, owner: recipient, mint }),
          getTransferCheckedInstruction({ source, mint, destination, authority: owner, amount, decimals: n.usdc.decimals }),
          memo,
        ],
        m,
      ),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(transaction);
  let sendError: unknown;
  try {
    // Simulated first (preflight): a wallet short of USDC or SOL is refused here, with nothing sent.
    await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64", preflightCommitment: "confirmed" }).send();
  } catch (err) {
    // An answer from the node means it refused the transaction; without one, it may still have gone out.
    if (isSolanaError(err) && !isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) throw err;
    sendError = err;
  }

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      // The height first: a signature still unknown once the blockhash has expired can never land.
      const height = await rpc.getBlockHeight({ commitment: "confirmed" }).send();
      const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
      if (status?.err) throw new TransferFailed(`The refund transfer ${signature} on ${n.network} failed: ${json(status.err)}`);
      if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return signature;
      if (!status && height > lifetime.lastValidBlockHeight) {
        throw new TransferFailed(`The refund transfer ${signature} on ${n.network} expired without landing`, { cause: sendError });
      }
    } catch (err) {
      if (err instanceof TransferFailed) throw err;
      // The RPC is unreachable for a moment: keep watching until the deadline.
    }
    if (Date.now() > deadline) {
      if (sendError) throw new Error(`The refund transfer ${signature} on ${n.network} could not be sent`, { cause: sendError });
      console.warn(`[refunds] ${signature} on ${n.network} was sent but not confirmed; recorded as paid`);
      return signature;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

class TransferFailed extends Error {}

const json = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? String(x) : x));

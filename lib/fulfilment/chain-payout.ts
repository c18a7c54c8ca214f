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
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Base64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from "@solana/kit";
import {
  BaseError,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  isAddress as isEvmAddress,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type LocalAccount,
} from "viem";
import { viemChain } from "@/lib/payments/chain";
import { errorText, nonceKey, replacementFees, type SenderSync } from "@/lib/payments/evm-signer";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/networks";
import type { Payout, SignedPayout } from "./refund";

/** How long a sent transfer is watched before the refund is left for the next round. */
const CONFIRM_TIMEOUT_MS = 5 * 60_000;
const STUCK_AFTER_MS = 12_000;
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
  /** Runs before each EVM transfer is signed (the devnet gives the sender gas here). */
  beforeEvmTransfer?: (n: EvmNetwork, from: Address) => Promise<void>;
  /** The EVM wallet's lock and nonces, shared by every server (see lib/payments/evm-signer.ts). */
  sync: SenderSync;
  confirmTimeoutMs?: number;
  /** An EVM transfer still waiting after this is sent again at a higher fee (12 s: a few blocks of Base or Polygon). */
  stuckAfterMs?: number;
};

/**
 * Refunds as real USDC transfers from a refund wallet back to the payer, on the network the invoice was paid on: an
 * ERC-20 `transfer` on EVM networks, an SPL `transferChecked` on Solana (creating the payer's token account if
 * missing). Each transfer is signed here and stored by the caller before it is sent (see refund.ts):
 * - EVM: its nonce is taken under the wallet's lock (one nonce sequence per network and wallet across servers) and
 *   recorded as used once the transfer is stored; a stored transfer can no longer land once the wallet's mined count
 *   has passed its nonce without it.
 * - Solana: it lives by a recent blockhash; unseen once that blockhash has expired, it can no longer land.
 */
export function chainPayout(opts: ChainPayoutOptions): Payout {
  const network = (id: string) => {
    const n = opts.networks.find((x) => x.network === id);
    if (!n) throw new Error(`This shop has no network ${id}`);
    return n;
  };
  return {
    confirmTimeoutMs: opts.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS,
    stuckAfterMs: opts.stuckAfterMs ?? STUCK_AFTER_MS,
    async sign(to, amountAtomic, store) {
      const n = network(to.network);
      if (amountAtomic <= 0n) throw new Error(`Cannot refund ${amountAtomic} atomic USDC`);
      if (n.kind === "evm") {
        if (!opts.evmKey) throw new Error(`no refund key for ${n.network} (set REFUND_EVM_PRIVATE_KEY)`);
        return signEvm(n, opts.evmKey, to.payer, amountAtomic, opts, store);
      }
      if (!opts.solanaKey) throw new Error(`no refund key for ${n.network} (set REFUND_SOLANA_PRIVATE_KEY)`);
      const signed = await signSolana(n, opts.solanaKey, opts.solanaFeePayer ?? opts.solanaKey, to.payer, amountAtomic);
      return (await store(signed)) ? signed : null;
    },
    async send(id, p) {
      const n = network(id);
      if (n.kind === "evm") {
        await evmClient(n)
          .sendRawTransaction({ serializedTransaction: `0x${Buffer.from(p.raw, "base64").toString("hex")}` })
          .catch((err: unknown) => {
            // Known already, or its nonce is used (by it, or by another: status tells): nothing more to send.
            if (/already known|nonce too low|already been used|known transaction/i.test(errorText(err))) return;
            throw err instanceof BaseError ? new Error(`The refund transfer on ${n.network} was refused: ${err.shortMessage}`, { cause: err }) : err;
          });
        return;
      }
      await createSolanaRpc(n.rpcUrl)
        .sendTransaction(p.raw as Base64EncodedWireTransaction, { encoding: "base64", preflightCommitment: "confirmed" })
        .send()
        .catch((err: unknown) => {
          if (/already been processed|AlreadyProcessed/i.test(errorText(err))) return;
          throw err;
        });
    },
    async replace(id, p) {
      const n = network(id);
      // A Solana transfer is never replaced: it expires with its blockhash, and the refund then signs a new one.
      if (n.kind !== "evm" || !opts.evmKey) return null;
      return replaceEvm(n, opts.evmKey, p);
    },
    async status(id, p) {
      const n = network(id);
      if (n.kind === "evm") {
        const client = evmClient(n);
        // The mined count first: if it has passed the nonce, whatever took that nonce is in a block by then, so a
        // receipt asked for afterwards tells whether it was this transfer (asked the other way round, a block mined
        // between the two questions would make a landed transfer look dead, and the refund would be paid twice).
        const mined = await client.getTransactionCount({ address: opts.evmKey!.address, blockTag: "latest" });
        // Only "no such receipt" means none: any other failure (a timeout, a 429) is no answer, and throws (pending),
        // lest a mined transfer whose receipt could not be read be taken for dead and the refund paid again.
        const receipt = await client.getTransactionReceipt({ hash: p.transaction as Hash }).catch((err: unknown) => {
          if (err instanceof TransactionReceiptNotFoundError) return null;
          throw err;
        });
        if (receipt) return receipt.status === "success" ? "landed" : "failed";
        return mined > Number(p.expiry) ? "dead" : "pending";
      }
      const rpc = createSolanaRpc(n.rpcUrl);
      // The height first: a signature still unknown once the blockhash has expired can never land.
      const height = await rpc.getBlockHeight({ commitment: "confirmed" }).send();
      const [status] = (await rpc.getSignatureStatuses([p.transaction as Signature], { searchTransactionHistory: true }).send()).value;
      if (status?.err) return "failed";
      if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return "landed";
      if (!status && height > BigInt(p.expiry)) return "dead";
      return "pending";
    },
  };
}

/**
 * The same ERC-20 transfer, nonce and gas, signed again at the chain's current fees and at least 12.5 % above its
 * own (what nodes ask of a replacement): null when the stored bytes are not an EIP-1559 transaction of this wallet's.
 */
async function replaceEvm(n: EvmNetwork, account: LocalAccount, p: SignedPayout): Promise<SignedPayout | null> {
  const serializedFirst = `0x${Buffer.from(p.raw, "base64").toString("hex")}` as const;
  const first = parseTransaction(serializedFirst);
  if (first.type !== "eip1559" || first.nonce === undefined || first.maxFeePerGas === undefined || first.maxPriorityFeePerGas === undefined) return null;
  // Only a transfer of this wallet on this chain: the same nonce signed by another key (a rotated refund key) would
  // be a second, independent transfer.
  if (first.chainId !== n.chainId) return null;
  if ((await recoverTransactionAddress({ serializedTransaction: serializedFirst as `0x02${string}` })).toLowerCase() !== account.address.toLowerCase())
    return null;
  const current = await evmClient(n).estimateFeesPerGas();
  const fees = replacementFees({ maxFeePerGas: first.maxFeePerGas, maxPriorityFeePerGas: first.maxPriorityFeePerGas }, current);
  const serialized = await account.signTransaction({
    chainId: n.chainId,
    type: "eip1559",
    to: first.to,
    data: first.data,
    gas: first.gas,
    nonce: first.nonce,
    ...fees,
  });
  return { transaction: keccak256(serialized), raw: Buffer.from(serialized.slice(2), "hex").toString("base64"), expiry: p.expiry };
}

const evmClient = (n: EvmNetwork) => createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl) });

async function signEvm(
  n: EvmNetwork,
  account: LocalAccount,
  payer: string,
  amount: bigint,
  opts: ChainPayoutOptions,
  store: (p: SignedPayout) => Promise<boolean>,
): Promise<SignedPayout | null> {
  if (!isEvmAddress(payer, { strict: false })) throw new Error(`Not an EVM address: ${payer}`);
  const client = evmClient(n);
  await opts.beforeEvmTransfer?.(n, account.address);
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [getAddress(payer), amount] });
  // Estimated (and so simulated) before it is signed: a wallet short of USDC or gas fails here, with nothing stored.
  const [gas, fees] = await Promise.all([client.estimateGas({ account, to: n.usdc.address, data }), client.estimateFeesPerGas()]).catch((err: unknown) => {
    throw err instanceof BaseError
      ? new Error(`The refund transfer on ${n.network} could not be made: ${err.shortMessage.replace(/\s*\n\s*/g, " ")}`, { cause: err })
      : err;
  });
  const key = nonceKey(n.network, account.address);
  return opts.sync.lock(key, async () => {
    const recorded = await opts.sync.nonces.get(key);
    const pending = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
    const nonce = Math.max(pending, recorded?.next ?? 0);
    const serialized = await account.signTransaction({
      chainId: n.chainId,
      type: "eip1559",
      to: n.usdc.address,
      data,
      gas: (gas * 12n) / 10n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      nonce,
    });
    const signed = { transaction: keccak256(serialized), raw: Buffer.from(serialized.slice(2), "hex").toString("base64"), expiry: String(nonce) };
    if (!(await store(signed))) return null;
    // Stored: this nonce is spoken for, sent now or by a later retry.
    await opts.sync.nonces.set(key, nonce + 1);
    return signed;
  });
}

/** An SPL `transferChecked` from the refund wallet's token account to the payer's, created if missing; signed, not sent. */
async function signSolana(n: SolanaNetwork, owner: KeyPairSigner, feePayer: KeyPairSigner, payer: string, amount: bigint): Promise<SignedPayout> {
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
  return {
    transaction: getSignatureFromTransaction(transaction),
    raw: getBase64EncodedWireTransaction(transaction),
    expiry: lifetime.lastValidBlockHeight.toString(),
  };
}

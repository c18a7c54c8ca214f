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
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type LocalAccount,
} from "viem";
import { viemChain, errorText, nonceKey, replacementFees, type SenderSync } from "@/lib/payments";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import type { Payout, PayoutVerdict, SignedPayout } from "./refund";

/** How long a sent transfer is watched before the refund is left for the next round. */
const CONFIRM_TIMEOUT_MS = 5 * 60_000;
const STUCK_AFTER_MS = 12_000;
/** Blocks under the head at which an EVM transfer's nonce must already be used before it can be called dead. */
const DEAD_NONCE_DEPTH = 3;
/** Blocks over which an EVM transfer must keep looking dead, at every question, before it is called dead. */
const DEAD_AGREEMENT_BLOCKS = 3;
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
 *   recorded as used once the transfer is stored; a stored transfer can no longer land once the wallet's nonce was
 *   used without any of its versions, which is decided only on proof (see `evmStatus`).
 * - Solana: it lives by a recent blockhash; unseen once that blockhash has expired, it can no longer land.
 */
export function chainPayout(opts: ChainPayoutOptions): Payout {
  const network = (id: string) => {
    const n = opts.networks.find((x) => x.network === id);
    if (!n) throw new Error(`This shop has no network ${id}`);
    return n;
  };
  // Transfers that looked dead at the last question (every version unknown, their nonce used): by network and nonce,
  // with their versions and the head at which they first did. Only in this process: after a restart the chain is
  // asked again from the start, which only makes a dead transfer's refund later.
  const suspects = new Map<string, { hashes: string; since: bigint; head: bigint }>();

  /**
   * What the chain says of an EVM transfer, all its versions together (one nonce: at most one can be mined). "dead"
   * only on proof, since a new transfer is signed then, and a live one would pay the refund twice:
   * - the wallet's nonce was used DEAD_NONCE_DEPTH blocks under the head already (whatever took it is in a block old
   *   enough to be served by the node), and
   * - no version is known to the node: no receipt, and the look-up by hash says "not found" for every one (a version
   *   found, mined or waiting, is pending; a look-up not answered, a 429 or a timeout, is no answer), and
   * - it has looked so at every question answered for DEAD_AGREEMENT_BLOCKS blocks, on a head that never went back (a
   *   node behind the others, or receipts indexed after the block, show a mined transfer as unknown for a while).
   * Anything short of that is "pending": a refund late by minutes is fine, a refund paid twice is not.
   */
  async function evmStatus(n: EvmNetwork, wallet: Address, versions: readonly SignedPayout[]): Promise<PayoutVerdict> {
    const client = evmClient(n);
    const key = `${n.network} ${versions[0]!.expiry}`;
    const hashes = versions.map((v) => v.transaction as Hash);
    const nonce = Number(versions[0]!.expiry);
    const suspect = suspects.get(key);
    // Evidence that it may live (a version known, the nonce not used yet, the head gone back) starts the agreement over;
    // a question not answered is only no answer, and leaves it as it was.
    const alive = (): PayoutVerdict => {
      suspects.delete(key);
      return { status: "pending" };
    };
    const noAnswer: PayoutVerdict = { status: "pending" };
    // The head first, then the nonce under it, then the versions: a version mined before the nonce was read as used
    // is in a block by the time it is looked up.
    const head = await client.getBlockNumber({ cacheTime: 0 });
    // A head behind one seen before is another node, or a chain rolled back: whatever was seen of it starts over.
    if (suspect && head < suspect.head) return alive();
    const used = head >= DEAD_NONCE_DEPTH && (await client.getTransactionCount({ address: wallet, blockNumber: head - BigInt(DEAD_NONCE_DEPTH) })) > nonce;
    // Only "no such receipt" means none; any other failure is no answer (undefined).
    const receipts = await Promise.all(
      hashes.map((hash) => client.getTransactionReceipt({ hash }).catch((err: unknown) => (err instanceof TransactionReceiptNotFoundError ? null : undefined))),
    );
    const receipt = receipts.find((r) => r);
    if (receipt) {
      suspects.delete(key);
      return { status: receipt.status === "success" ? "landed" : "failed", transaction: receipt.transactionHash };
    }
    if (!used) return alive();
    if (receipts.includes(undefined)) return noAnswer;
    // Only viem's TransactionNotFoundError means the node knows no such transaction.
    const known = await Promise.all(
      hashes.map((hash) =>
        client.getTransaction({ hash }).then(
          () => true,
          (err: unknown) => (err instanceof TransactionNotFoundError ? false : undefined),
        ),
      ),
    );
    if (known.includes(true)) return alive();
    if (known.includes(undefined)) return noAnswer;
    const versionsKey = [...hashes].sort().join(",");
    if (!suspect || suspect.hashes !== versionsKey) {
      suspects.set(key, { hashes: versionsKey, since: head, head });
      return { status: "pending" };
    }
    suspect.head = head;
    if (head - suspect.since < DEAD_AGREEMENT_BLOCKS) return { status: "pending" };
    suspects.delete(key);
    return { status: "dead" };
  }

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
            // Known already (geth: "already known", anvil: "transaction already imported"), or its nonce is used (by it,
            // or by another: status tells): nothing more to send.
            if (/already known|already imported|nonce too low|already been used|known transaction/i.test(errorText(err))) return;
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
    async status(id, versions) {
      const n = network(id);
      if (versions.length === 0) throw new Error("A refund transfer has at least one version");
      if (n.kind === "evm") return evmStatus(n, opts.evmKey!.address, versions);
      return solanaStatus(n, versions[0]!);
    },
  };
}

/**
 * What the chain says of a Solana transfer: a signature still unknown once its blockhash has expired can never land.
 * The height and its slot are read first, then the status: "dead" only when the node that answered the status had
 * seen that slot (one behind the others would not know a transfer landed since, and the refund would be paid twice).
 */
async function solanaStatus(n: SolanaNetwork, p: SignedPayout): Promise<PayoutVerdict> {
  const rpc = createSolanaRpc(n.rpcUrl);
  const { blockHeight: height, absoluteSlot } = await rpc.getEpochInfo({ commitment: "confirmed" }).send();
  const {
    context,
    value: [status],
  } = await rpc.getSignatureStatuses([p.transaction as Signature], { searchTransactionHistory: true }).send();
  if (status?.err) return { status: "failed", transaction: p.transaction };
  if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return { status: "landed", transaction: p.transaction };
  if (!status && height > BigInt(p.expiry) && context.slot >= absoluteSlot) return { status: "dead" };
  return { status: "pending" };
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

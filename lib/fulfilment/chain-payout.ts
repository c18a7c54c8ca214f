import { randomBytes } from "node:crypto";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
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
import { viemChain, errorText, nonceKey, nonceUse, replacementFees, type SenderSync } from "@/lib/payments";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import type { Payout, PayoutVerdict, SignedPayout } from "./refund";

/** How long a sent transfer is watched before the refund is left for the next round. */
const CONFIRM_TIMEOUT_MS = 5 * 60_000;
const STUCK_AFTER_MS = 12_000;
/** A transfer found mined in a block while its receipt is not served yet is not searched for again before this. */
const MINED_UNRECEIPTED_MEMO_MS = 2_000;
const MEMO_PROGRAM_ADDRESS = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

export type ChainPayoutOptions = {
  /** The networks refunds can go out on; an invoice paid on another network is refused. */
  networks: readonly PaymentNetwork[];
  /** The EVM refund wallet: holds the USDC (and ether, for ether refunds) on each EVM network and pays its own gas. */
  evmKey?: LocalAccount;
  /** The Solana refund wallet: holds the USDC. */
  solanaKey?: KeyPairSigner;
  /** Pays the Solana fee (never a token account's rent: refunds go to existing ones only); the refund wallet by default. */
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
 * Refunds as real transfers from a refund wallet back to the payer, on the network the invoice was paid on: USDC by an
 * ERC-20 `transfer` on EVM networks (or ether, the transaction's value, for what a payment by address brought in
 * ether), an SPL `transferChecked` on Solana (to the payer's token account, which must
 * exist: see `signSolana`). Each transfer is signed here and stored by the caller before it is sent (see refund.ts):
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
  // Transfers found mined in a block while no receipt of theirs was served yet (receipts indexed late, another node
  // behind the URL): by network and nonce, with when. Only spares the node the search for a moment; nothing is decided
  // from it, so a restart loses nothing.
  const minedUnreceipted = new Map<string, number>();

  /**
   * What the chain says of an EVM transfer, all its versions together (one nonce: at most one can be mined), at the
   * network's depth (`confirmations`, as payments; the block counted from the one that holds it, included):
   * - "landed" / "failed": a version's receipt, in a block at the depth that is still the chain's block at that height.
   * - "dead", only on proof, since a new transfer is signed then and a live one would pay the refund twice: the wallet's
   *   nonce was used by the block at the depth, and the block that used it holds a transaction of this wallet with this
   *   nonce that is none of the versions. A receipt or a look-up that says "not found" proves nothing (a node that
   *   lags says so of a mined transfer for as long as it lags), and no count of blocks or seconds stands in for it.
   * - "pending" otherwise: not mined yet, mined but not at the depth, mined and its receipt not served yet, or a
   *   question not answered (which throws: taken as pending too). A refund late by minutes is fine; one paid twice is not.
   */
  async function evmStatus(n: EvmNetwork, wallet: Address, versions: readonly SignedPayout[]): Promise<PayoutVerdict> {
    const client = evmClient(n);
    const depth = BigInt(n.confirmations ?? 1);
    const key = `${n.network} ${versions[0]!.expiry}`;
    const hashes = versions.map((v) => v.transaction.toLowerCase() as Hash);
    const nonce = Number(versions[0]!.expiry);
    const pending: PayoutVerdict = { status: "pending" };
    // Only "no such receipt" means none; any other failure is no answer (undefined).
    const receipts = await Promise.all(
      hashes.map((hash) => client.getTransactionReceipt({ hash }).catch((err: unknown) => (err instanceof TransactionReceiptNotFoundError ? null : undefined))),
    );
    // The head after the receipts: a receipt read before it is from a block it has (on a node that does not go back).
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const receipt = receipts.find((r) => r);
    if (receipt) {
      minedUnreceipted.delete(key);
      // A receipt from a block not yet at the depth (or from a node ahead of the one that gave the head) is waited for.
      if (head - receipt.blockNumber + 1n < depth) return pending;
      // Its block must still be the chain's at that height: a node that kept a block the chain reorganized away serves
      // its receipts too.
      if ((await client.getBlock({ blockNumber: receipt.blockNumber })).hash !== receipt.blockHash) return pending;
      return { status: receipt.status === "success" ? "landed" : "failed", transaction: receipt.transactionHash };
    }
    if (receipts.includes(undefined)) return pending;
    if (Date.now() - (minedUnreceipted.get(key) ?? 0) < MINED_UNRECEIPTED_MEMO_MS) return pending;
    // Used by the block at the depth, by another transaction than its versions: dead. Not used there yet: a version may
    // still be mined (the refund sends it again). Used by a version: mined, its receipt not served yet.
    const use = await nonceUse(client, wallet, nonce, head - depth + 1n);
    if (!use.used) return pending;
    if (hashes.includes(use.by.toLowerCase() as Hash)) {
      minedUnreceipted.set(key, Date.now());
      return pending;
    }
    minedUnreceipted.delete(key);
    return { status: "dead" };
  }

  return {
    confirmTimeoutMs: opts.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS,
    stuckAfterMs: opts.stuckAfterMs ?? STUCK_AFTER_MS,
    async sign(to, amountAtomic, store) {
      const n = network(to.network);
      if (amountAtomic <= 0n) throw new Error(`Cannot refund ${amountAtomic} atomic units`);
      if (n.kind === "evm") {
        if (!opts.evmKey) throw new Error(`no refund key for ${n.network} (set REFUND_EVM_PRIVATE_KEY)`);
        return signEvm(n, opts.evmKey, to.payer, amountAtomic, opts, store, to.asset);
      }
      if (to.asset === "native") throw new Error(`Cannot refund ether on ${n.network}`);
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
 * What the chain says of a Solana transfer: landed or failed once its status is `confirmed` (Solana's depth, as for
 * payments); dead only when its blockhash has expired as seen at `finalized` (a height no fork can take back) and its
 * signature is unknown to a node that had seen that slot (one behind the others would not know a transfer that landed
 * since, and the refund would be paid twice). The finalized height and its slot are read first, then the status.
 */
async function solanaStatus(n: SolanaNetwork, p: SignedPayout): Promise<PayoutVerdict> {
  const rpc = createSolanaRpc(n.rpcUrl);
  const { blockHeight: height, absoluteSlot } = await rpc.getEpochInfo({ commitment: "finalized" }).send();
  const {
    context,
    value: [status],
  } = await rpc.getSignatureStatuses([p.transaction as Signature], { searchTransactionHistory: true }).send();
  const deep = status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized";
  // A failure only processed (on a fork that may be dropped) is not final: the same transaction may still land.
  if (deep && status.err) return { status: "failed", transaction: p.transaction };
  if (deep) return { status: "landed", transaction: p.transaction };
  if (!status && height > BigInt(p.expiry) && context.slot >= absoluteSlot) return { status: "dead" };
  return { status: "pending" };
}

/**
 * The same transfer (ERC-20 or ether), nonce and gas, signed again at the chain's current fees and at least 12.5 % above its
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
    // (An ether refund's amount is its value.)
    value: first.value,
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
  asset?: "native",
): Promise<SignedPayout | null> {
  if (!isEvmAddress(payer, { strict: false })) throw new Error(`Not an EVM address: ${payer}`);
  const client = evmClient(n);
  await opts.beforeEvmTransfer?.(n, account.address);
  // USDC by its contract's `transfer`; ether as the value of a plain transaction.
  const call =
    asset === "native"
      ? { to: getAddress(payer), value: amount }
      : { to: n.usdc.address, data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [getAddress(payer), amount] }) };
  // Estimated (and so simulated) before it is signed: a wallet short of USDC or gas fails here, with nothing stored.
  const [gas, fees] = await Promise.all([client.estimateGas({ account, ...call }), client.estimateFeesPerGas()]).catch((err: unknown) => {
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
      ...call,
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

/** An SPL `transferChecked` from the refund wallet's token account to the payer's existing one; signed, not sent. */
async function signSolana(n: SolanaNetwork, owner: KeyPairSigner, feePayer: KeyPairSigner, payer: string, amount: bigint): Promise<SignedPayout> {
  if (!isAddress(payer)) throw new Error(`Not a Solana address: ${payer}`);
  const rpc = createSolanaRpc(n.rpcUrl);
  const mint = address(n.usdc.mint);
  const recipient = address(payer);
  const [source] = await findAssociatedTokenPda({ owner: owner.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [destination] = await findAssociatedTokenPda({ owner: recipient, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  // Only to a token account that exists: creating one would cost the shop its rent at every refund of a payer who
  // closes it in between (and keeps the rent). The payer paid from one; without it the refund waits for the operator.
  const { value: account } = await rpc.getAccountInfo(destination, { commitment: "confirmed", encoding: "base64", dataSlice: { offset: 0, length: 0 } }).send();
  if (!account) {
    throw new Error(
      `the payer ${payer} has no USDC token account on ${n.network} (${destination}, closed since the payment?): the refund waits until it exists again, or for the operator to pay it by hand`,
    );
  }
  // Two refunds of the same amount to the same wallet within one blockhash would otherwise be one transaction.
  const memo: Instruction = { programAddress: MEMO_PROGRAM_ADDRESS, data: new TextEncoder().encode(`refund ${randomBytes(8).toString("hex")}`) };
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferCheckedInstruction({ source, mint, destination, authority: owner, amount, decimals: n.usdc.decimals }), memo],
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

import { createHash, randomBytes } from "node:crypto";
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Address,
  type Blockhash,
  type Transaction,
} from "@solana/kit";
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { decodeMintAccount, decodeTokenAccount } from "./spl-token";
import { transactionErrorJson, type TransactionErrorJson } from "./svm-errors";

/** A JSON-RPC error that the server passes on as is. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export type LedgerAccount = {
  address: string;
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
};

export type SimulationValue = {
  err: TransactionErrorJson | null;
  logs: string[];
  accounts: (LedgerAccount | null)[] | null;
  unitsConsumed: bigint;
  returnData: { programId: string; data: [string, "base64"] } | null;
  innerInstructions?: InnerInstructionsJson[];
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: bigint };
};

export type InnerInstructionsJson = {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[];
};

export type SignatureStatus = { slot: bigint; err: TransactionErrorJson | null };

/** An SPL Token account's balance before or after a transaction, as a node reports it in the transaction's meta. */
export type TokenBalance = { accountIndex: number; mint: string; owner: string; programId: string; amount: bigint; decimals: number };

/**
 * What a node keeps of a transaction it processed (getTransaction): the transaction as sent, and its meta. Balances are
 * read from the SVM's accounts just before and just after it ran, for the message's own account keys.
 */
export type ProcessedTransaction = {
  slot: bigint;
  /** Its place among every transaction this ledger processed (the first is 1): the order of a node's ledger. */
  sequence: bigint;
  blockTime: bigint;
  wire: Uint8Array;
  err: TransactionErrorJson | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
  computeUnitsConsumed: bigint;
  innerInstructions: InnerInstructionsJson[];
  /** The message's account keys: what getSignaturesForAddress finds it by. */
  accounts: readonly string[];
  /** Its memos as a node lists them in getSignaturesForAddress (`[length] text`, joined by "; "), or null. */
  memo: string | null;
};

/** A slot every 400 ms of wall time, as on a real cluster. */
export const SLOT_MS = 400;
/** A blockhash is good for 150 slots (about a minute), as on a real cluster. */
export const BLOCKHASH_LIFETIME_SLOTS = 150n;
/** Slots after which a confirmed transaction reads finalized (as on a cluster): how far the finalized bank lags. */
export const FINALIZED_AFTER_SLOTS = 32n;
export const SLOTS_PER_EPOCH = 432_000n;
/** Lamports per signature, litesvm's (and mainnet's) base fee. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

const MAX_STATUSES = 50_000;
/** Whole transactions kept for getTransaction (larger than a status: a shorter history, as a node without a ledger archive). */
const MAX_TRANSACTIONS = 10_000;
const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
/** The SPL Memo programs (v1 and v3) whose instructions a node lists as a transaction's memo. */
const MEMO_PROGRAMS = new Set(["Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo", "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"]);
const MAX_COMPUTE_UNITS = 1_400_000n;
const DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION = 200_000n;

const base58 = getBase58Decoder();
const transactionDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();

type CompiledMessage = ReturnType<typeof messageDecoder.decode>;

// litesvm is typed against its own nested copy of @solana/kit (v8); the values are the same plain strings and
// byte arrays, so the project's kit 5 values are passed through these casts.
type SvmAddress = Parameters<LiteSVM["getAccount"]>[0];
type SvmTransaction = Parameters<LiteSVM["sendTransaction"]>[0];
type SvmAccount = Parameters<LiteSVM["setAccount"]>[0];

/**
 * litesvm plus what a cluster adds around it: wall-clock slots, a window of recent blockhashes (litesvm's own
 * blockhash check is off: it only knows one), signature statuses, and a hook for every account a change wrote.
 */
export class SolanaLedger {
  readonly svm: LiteSVM;
  private readonly blockhashSalt = randomBytes(16);
  /** Issued blockhash -> slot it was issued at (insertion order = slot order). */
  private readonly blockhashes = new Map<string, bigint>();
  private lastIssued: { slot: bigint; blockhash: string } | undefined;
  private readonly statuses = new Map<string, SignatureStatus>();
  private readonly transactions = new Map<string, ProcessedTransaction>();
  /** Account -> signatures of the kept transactions that name it, oldest first. */
  private readonly signaturesByAccount = new Map<string, string[]>();
  private transactionCount = 0n;
  private clockSlot = -1n;

  constructor(
    private readonly genesisTimeMs: number,
    /** Called with the addresses of accounts that a change may have written. */
    private readonly onAccountsWritten: (addresses: string[]) => void,
  ) {
    this.svm = new LiteSVM().withBlockhashCheck(false).withSigverify(true);
  }

  slot(): bigint {
    return BigInt(Math.max(0, Math.floor((Date.now() - this.genesisTimeMs) / SLOT_MS)));
  }

  /** Every slot is a block here, so the block height is the slot. */
  blockHeight(): bigint {
    return this.slot();
  }

  transactionCountSoFar(): bigint {
    return this.transactionCount;
  }

  latestBlockhash(): { blockhash: Blockhash; lastValidBlockHeight: bigint; slot: bigint } {
    const slot = this.slot();
    if (this.lastIssued?.slot !== slot) {
      const blockhash = base58.decode(createHash("sha256").update(this.blockhashSalt).update(slot.toString()).digest());
      this.blockhashes.set(blockhash, slot);
      this.lastIssued = { slot, blockhash };
      // Kept while the finalized bank, FINALIZED_AFTER_SLOTS behind, may still take it.
      for (const [hash, issued] of this.blockhashes) {
        if (issued + BLOCKHASH_LIFETIME_SLOTS + FINALIZED_AFTER_SLOTS >= slot) break;
        this.blockhashes.delete(hash);
      }
    }
    return {
      blockhash: this.lastIssued.blockhash as Blockhash,
      lastValidBlockHeight: this.lastIssued.slot + BLOCKHASH_LIFETIME_SLOTS,
      slot,
    };
  }

  /**
   * Whether a transaction with this blockhash could land in a block at `atSlot` (the newest one unless told; a
   * commitment's bank is an older one): issued by then, and not more than its lifetime before. A hash newer than the
   * bank is unknown to it, as to a node's bank at that commitment.
   */
  isBlockhashValid(blockhash: string, atSlot = this.slot()): boolean {
    const issued = this.blockhashes.get(blockhash);
    return issued !== undefined && issued <= atSlot && atSlot <= issued + BLOCKHASH_LIFETIME_SLOTS;
  }

  getAccount(address: string): LedgerAccount | null {
    const account = this.svm.getAccount(address as SvmAddress);
    if (!account.exists) return null;
    return {
      address,
      lamports: BigInt(account.lamports),
      owner: account.programAddress,
      data: account.data,
      executable: account.executable,
    };
  }

  /** Writes an account directly (faucet, restore): no transaction. */
  setAccount(account: LedgerAccount, opts: { persist?: boolean } = {}): void {
    this.svm.setAccount({
      address: account.address,
      lamports: account.lamports,
      programAddress: account.owner,
      data: account.data,
      executable: account.executable,
      space: BigInt(account.data.length),
    } as unknown as SvmAccount);
    if (opts.persist !== false) this.onAccountsWritten([account.address]);
  }

  minimumBalanceForRentExemption(dataLength: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLength);
  }

  decodeTransaction(bytes: Uint8Array): { transaction: Transaction; message: CompiledMessage } {
    try {
      const transaction = transactionDecoder.decode(bytes);
      return { transaction, message: messageDecoder.decode(transaction.messageBytes) };
    } catch (err) {
      throw new RpcError(-32602, `invalid transaction: failed to deserialize (${(err as Error).message})`);
    }
  }

  decodeMessage(bytes: Uint8Array): CompiledMessage {
    try {
      return messageDecoder.decode(bytes);
    } catch (err) {
      throw new RpcError(-32602, `invalid message: failed to deserialize (${(err as Error).message})`);
    }
  }

  /**
   * Executes a signed transaction. Rejected before execution (bad signature, unknown or expired blockhash,
   * already processed, fee payer cannot pay): a JSON-RPC error, nothing changes. Executed but failed: with
   * `preflight` (the RPC default) a JSON-RPC error and nothing changes (it is simulated first); without, it
   * lands like on a cluster (fee charged, status with `err`) and its signature is returned.
   */
  sendTransaction(bytes: Uint8Array, opts: { preflight: boolean }): string {
    const { transaction, message } = this.decodeTransaction(bytes);
    if (Object.values(transaction.signatures).some((s) => s === null)) {
      throw new RpcError(-32003, "Transaction signature verification failure");
    }
    const signature = getSignatureFromTransaction(transaction);
    if (!this.isBlockhashValid(message.lifetimeToken)) {
      throw preflightError("BlockhashNotFound", []);
    }
    this.syncClock();
    if (opts.preflight) {
      const simulated = this.simulate(transaction, { sigverify: true });
      if (simulated.err === "SignatureFailure") throw new RpcError(-32003, "Transaction signature verification failure");
      if (simulated.err !== null) throw preflightError(simulated.err, simulated.logs);
    }
    const before = this.balances(message);
    let result: TransactionMetadata | FailedTransactionMetadata;
    try {
      result = this.svm.sendTransaction(transaction as unknown as SvmTransaction);
    } catch (err) {
      throw new RpcError(-32003, `Transaction signature verification failure: ${(err as Error).message}`);
    }
    if (result instanceof FailedTransactionMetadata) {
      const err = transactionErrorJson(result.err());
      // A failed execution lands (the fee is charged, litesvm records it); anything else never got in.
      const landed = err !== "AlreadyProcessed" && this.svm.getTransaction(signature as never) !== null;
      if (!landed) {
        if (err === "SignatureFailure") throw new RpcError(-32003, "Transaction signature verification failure");
        throw preflightError(err, result.meta().logs());
      }
      this.record(signature, err, message, { bytes, before, meta: result.meta() });
      return signature;
    }
    this.record(signature, null, message, { bytes, before, meta: result });
    return signature;
  }

  /** Simulates a transaction; fills in the RPC's simulateTransaction `value`. */
  simulateTransaction(
    bytes: Uint8Array,
    opts: { sigVerify?: boolean; replaceRecentBlockhash?: boolean; innerInstructions?: boolean; accounts?: string[] },
  ): SimulationValue {
    const { transaction, message } = this.decodeTransaction(bytes);
    if (opts.sigVerify && opts.replaceRecentBlockhash) {
      throw new RpcError(-32602, "Invalid params: sigVerify may not be used with replaceRecentBlockhash");
    }
    let replacementBlockhash: SimulationValue["replacementBlockhash"];
    if (opts.replaceRecentBlockhash) {
      const { blockhash, lastValidBlockHeight } = this.latestBlockhash();
      replacementBlockhash = { blockhash, lastValidBlockHeight };
    } else if (!this.isBlockhashValid(message.lifetimeToken)) {
      return { err: "BlockhashNotFound", logs: [], accounts: null, unitsConsumed: 0n, returnData: null };
    }
    // Signatures are checked only when asked and when there are all of them: an x402 payment is simulated
    // before the facilitator (its fee payer) has signed.
    const fullySigned = Object.values(transaction.signatures).every((s) => s !== null);
    this.syncClock();
    const value = this.simulate(transaction, {
      sigverify: opts.sigVerify === true && fullySigned,
      innerInstructions: opts.innerInstructions === true,
      accounts: opts.accounts,
    });
    return replacementBlockhash ? { ...value, replacementBlockhash } : value;
  }

  signatureStatus(signature: string): SignatureStatus | null {
    return this.statuses.get(signature) ?? null;
  }

  /** A transaction this ledger processed (landed, failed or not), or null when it has none by that signature. */
  processedTransaction(signature: string): ProcessedTransaction | null {
    return this.transactions.get(signature) ?? null;
  }

  /** The signatures of the kept transactions that name `address` among their accounts, oldest first. */
  signaturesFor(address: string): readonly string[] {
    return this.signaturesByAccount.get(address) ?? [];
  }

  /** Base fee plus priority fee for a compiled message, as the cluster computes it. */
  feeForMessage(message: CompiledMessage): bigint {
    let unitLimit: bigint | undefined;
    let microLamportsPerUnit = 0n;
    let otherInstructions = 0n;
    for (const ix of message.instructions) {
      const program = message.staticAccounts[ix.programAddressIndex];
      const data = ix.data;
      if (program === COMPUTE_BUDGET_PROGRAM && data && data.length > 0) {
        const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
        if (data[0] === 2 && data.length >= 5) unitLimit = BigInt(view.getUint32(1, true));
        else if (data[0] === 3 && data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true);
      } else {
        otherInstructions += 1n;
      }
    }
    const units = unitLimit ?? minBig(otherInstructions * DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION, MAX_COMPUTE_UNITS);
    const priority = (microLamportsPerUnit * units + 999_999n) / 1_000_000n;
    return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts) + priority;
  }

  private simulate(transaction: Transaction, opts: { sigverify: boolean; innerInstructions?: boolean; accounts?: string[] }): SimulationValue {
    this.svm.withSigverify(opts.sigverify);
    let result;
    try {
      result = this.svm.simulateTransaction(transaction as unknown as SvmTransaction);
    } catch {
      // litesvm checks for missing signatures before it simulates.
      return { err: "SignatureFailure", logs: [], accounts: null, unitsConsumed: 0n, returnData: null };
    } finally {
      this.svm.withSigverify(true);
    }
    const failure = result instanceof FailedTransactionMetadata ? result : null;
    const success = result instanceof FailedTransactionMetadata ? null : result;
    const meta = result.meta();
    const returned = meta.returnData();
    const returnedData = returned.data();
    let accounts: SimulationValue["accounts"] = null;
    if (opts.accounts) {
      const after = success?.postAccounts() ?? [];
      accounts = opts.accounts.map((address) => {
        const post = after.find((a) => a.address === address);
        if (!post) return this.getAccount(address);
        return {
          address,
          lamports: BigInt(post.lamports),
          owner: post.programAddress,
          data: new Uint8Array(post.data),
          executable: post.executable,
        };
      });
    }
    const value: SimulationValue = {
      err: failure ? transactionErrorJson(failure.err()) : null,
      logs: meta.logs(),
      accounts,
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData:
        returnedData.length > 0 ? { programId: base58.decode(returned.programId()), data: [Buffer.from(returnedData).toString("base64"), "base64"] } : null,
    };
    if (opts.innerInstructions) value.innerInstructions = innerInstructionsJson(meta);
    return value;
  }

  private record(
    signature: string,
    err: TransactionErrorJson | null,
    message: CompiledMessage,
    run: { bytes: Uint8Array; before: AccountBalances; meta: TransactionMetadata },
  ): void {
    const slot = this.slot();
    this.transactionCount += 1n;
    this.statuses.set(signature, { slot, err });
    if (this.statuses.size > MAX_STATUSES) {
      const oldest = this.statuses.keys().next();
      if (!oldest.done) this.statuses.delete(oldest.value);
    }
    const after = this.balances(message);
    const accounts = [...message.staticAccounts];
    this.transactions.set(signature, {
      slot,
      sequence: this.transactionCount,
      blockTime: BigInt(Math.floor(Date.now() / 1000)),
      wire: run.bytes,
      err,
      fee: this.feeForMessage(message),
      preBalances: run.before.lamports,
      postBalances: after.lamports,
      preTokenBalances: run.before.tokens,
      postTokenBalances: after.tokens,
      logs: run.meta.logs(),
      computeUnitsConsumed: run.meta.computeUnitsConsumed(),
      innerInstructions: innerInstructionsJson(run.meta),
      accounts,
      memo: memoOf(message),
    });
    for (const account of accounts) {
      const list = this.signaturesByAccount.get(account);
      if (list) list.push(signature);
      else this.signaturesByAccount.set(account, [signature]);
    }
    if (this.transactions.size > MAX_TRANSACTIONS) {
      const oldest = this.transactions.entries().next();
      if (!oldest.done) this.forget(...oldest.value);
    }
    this.onAccountsWritten(writableStaticAccounts(message));
  }

  /** Drops the oldest kept transaction, and its signature from its accounts' lists (where it is the first). */
  private forget(signature: string, transaction: ProcessedTransaction): void {
    this.transactions.delete(signature);
    for (const account of transaction.accounts) {
      const list = this.signaturesByAccount.get(account);
      if (list?.[0] === signature) list.shift();
      if (list?.length === 0) this.signaturesByAccount.delete(account);
    }
  }

  /** The lamports and SPL Token balances of a message's account keys, as the SVM holds them now. */
  private balances(message: CompiledMessage): AccountBalances {
    const lamports: bigint[] = [];
    const tokens: TokenBalance[] = [];
    message.staticAccounts.forEach((address, accountIndex) => {
      const account = this.getAccount(address);
      lamports.push(account?.lamports ?? 0n);
      const token = decodeTokenAccount(account);
      const mint = token && decodeMintAccount(this.getAccount(token.mint));
      if (token && mint) {
        tokens.push({ accountIndex, mint: token.mint, owner: token.owner, programId: account!.owner, amount: token.amount, decimals: mint.decimals });
      }
    });
    return { lamports, tokens };
  }

  /** Keeps the Clock sysvar on the wall-clock slot and time. */
  private syncClock(): void {
    const slot = this.slot();
    if (slot === this.clockSlot) return;
    this.clockSlot = slot;
    const epoch = slot / SLOTS_PER_EPOCH;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const epochStart = now - ((slot % SLOTS_PER_EPOCH) * BigInt(SLOT_MS)) / 1000n;
    this.svm.setClock(new Clock(slot, epochStart, epoch, epoch, now));
  }
}

type AccountBalances = { lamports: bigint[]; tokens: TokenBalance[] };

/** The instructions a transaction's programs invoked, per top-level instruction, as the RPC lists them. */
function innerInstructionsJson(meta: TransactionMetadata): InnerInstructionsJson[] {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: Array.from(ix.accounts()),
          data: base58.decode(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

/** A message's memos as a node formats them: each Memo instruction's text as `[its length in bytes] text`, joined by "; ". */
function memoOf(message: CompiledMessage): string | null {
  const memos = message.instructions
    .filter((ix) => MEMO_PROGRAMS.has(message.staticAccounts[ix.programAddressIndex] ?? ""))
    .map((ix) => {
      const data = ix.data ?? new Uint8Array();
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(data);
      } catch {
        text = "(unparseable)";
      }
      return `[${data.length}] ${text}`;
    });
  return memos.length > 0 ? memos.join("; ") : null;
}

function preflightError(err: TransactionErrorJson, logs: string[]): RpcError {
  const text = typeof err === "string" ? err : JSON.stringify(err);
  return new RpcError(-32002, `Transaction simulation failed: ${text}`, {
    err,
    logs,
    accounts: null,
    unitsConsumed: 0,
    returnData: null,
  });
}

/** Static accounts the message may write (lookup-table accounts are not tracked). */
export function writableStaticAccounts(message: CompiledMessage): Address[] {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  const total = message.staticAccounts.length;
  return message.staticAccounts.filter(
    (_, i) =>
      (i < numSignerAccounts && i < numSignerAccounts - numReadonlySignerAccounts) || (i >= numSignerAccounts && i < total - numReadonlyNonSignerAccounts),
  );
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

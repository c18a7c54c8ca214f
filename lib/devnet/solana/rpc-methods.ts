import { getBase58Decoder, getBase58Encoder, isAddress } from "@solana/kit";
import {
  FINALIZED_AFTER_SLOTS,
  RpcError,
  SLOTS_PER_EPOCH,
  writableStaticAccounts,
  type InnerInstructionsJson,
  type LedgerAccount,
  type ProcessedTransaction,
  type SignatureStatus,
  type SolanaLedger,
  type TokenBalance,
} from "./ledger";
import { decodeMintAccount, decodeTokenAccount, parsedTokenData, uiTokenAmount } from "./spl-token";

export type RpcMethod = (params: unknown[]) => unknown;

/** What getVersion reports: a version that clients parse, for a litesvm-backed facade. */
const API_VERSION = "2.2.0";
const RENT_EPOCH_EXEMPT = 18_446_744_073_709_551_615n;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
/** getSignaturesForAddress's largest (and default) page, as on a node. */
const MAX_SIGNATURES_FOR_ADDRESS = 1000;

const base58 = getBase58Decoder();
const fromBase58 = getBase58Encoder();

type Commitment = "processed" | "confirmed" | "finalized";

/** The Solana JSON-RPC methods this local chain answers. */
export function createRpcMethods(ledger: SolanaLedger, genesisHash: string, opts: { confirmBySlot?: boolean } = {}): Record<string, RpcMethod> {
  const context = () => ({ apiVersion: API_VERSION, slot: ledger.slot() });
  /** How far a processed transaction has gone: with `confirmBySlot` by its slot's age, else final at once. */
  const confirmation = (status: SignatureStatus) => {
    const age = opts.confirmBySlot ? ledger.slot() - status.slot : FINALIZED_AFTER_SLOTS;
    const level = age >= FINALIZED_AFTER_SLOTS ? "finalized" : age > 0n ? "confirmed" : "processed";
    return { age, level } as const;
  };
  /** The slot of the bank a commitment reads: with `confirmBySlot` the confirmed one a slot back, the finalized one 32. */
  const bankSlot = (commitment: Commitment) => {
    const slot = ledger.slot();
    if (!opts.confirmBySlot || commitment === "processed") return slot;
    return commitment === "confirmed" ? slot - 1n : slot - FINALIZED_AFTER_SLOTS;
  };
  const mintOf = (mint: string) => decodeMintAccount(ledger.getAccount(mint));

  const encodeAccount = (account: LedgerAccount | null, config: Record<string, unknown>, defaultEncoding: string) => {
    if (!account) return null;
    const encoding = optionalString(config.encoding, "encoding") ?? defaultEncoding;
    const slice = dataSlice(config.dataSlice, account.data);
    const common = {
      executable: account.executable,
      lamports: account.lamports,
      owner: account.owner,
      rentEpoch: RENT_EPOCH_EXEMPT,
      space: BigInt(account.data.length),
    };
    switch (encoding) {
      case "base64":
        return { ...common, data: [Buffer.from(slice).toString("base64"), "base64"] };
      case "base58":
      case "binary": {
        if (slice.length > 128) {
          throw new RpcError(-32602, "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.");
        }
        const text = base58.decode(slice);
        return { ...common, data: encoding === "binary" ? text : [text, "base58"] };
      }
      case "jsonParsed": {
        const parsed = config.dataSlice === undefined ? parsedTokenData(account, mintOf) : null;
        return { ...common, data: parsed ?? [Buffer.from(slice).toString("base64"), "base64"] };
      }
      default:
        throw new RpcError(-32602, `Invalid params: encoding ${encoding} is not supported by this local chain`);
    }
  };

  const transactionBytes = (params: unknown[], config: Record<string, unknown>) => {
    const text = requireString(params[0], "transaction");
    const encoding = optionalString(config.encoding, "encoding") ?? "base58";
    if (encoding === "base64") return new Uint8Array(Buffer.from(text, "base64"));
    if (encoding === "base58") return bytesFromBase58(text);
    throw new RpcError(-32602, `Invalid params: unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
  };

  return {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": API_VERSION, "feature-set": 0 }),
    getGenesisHash: () => genesisHash,
    getSlot: () => ledger.slot(),
    getBlockHeight: () => ledger.blockHeight(),
    getTransactionCount: () => ledger.transactionCountSoFar(),
    getEpochInfo: () => {
      const slot = ledger.slot();
      return {
        absoluteSlot: slot,
        blockHeight: ledger.blockHeight(),
        epoch: slot / SLOTS_PER_EPOCH,
        slotIndex: slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: ledger.transactionCountSoFar(),
      };
    },
    getRecentPrioritizationFees: () => [],

    getLatestBlockhash: () => {
      const { blockhash, lastValidBlockHeight, slot } = ledger.latestBlockhash();
      return { context: { apiVersion: API_VERSION, slot }, value: { blockhash, lastValidBlockHeight } };
    },
    // At the node's default commitment (finalized) unless told, as a node answers it.
    isBlockhashValid: (params) => ({
      context: context(),
      value: ledger.isBlockhashValid(requireString(params[0], "blockhash"), bankSlot(commitmentOf(config(params[1])) ?? "finalized")),
    }),
    getFeeForMessage: (params) => {
      const message = ledger.decodeMessage(new Uint8Array(Buffer.from(requireString(params[0], "message"), "base64")));
      return {
        context: context(),
        value: ledger.isBlockhashValid(message.lifetimeToken) ? ledger.feeForMessage(message) : null,
      };
    },

    getAccountInfo: (params) => {
      const address = requireAddress(params[0]);
      return { context: context(), value: encodeAccount(ledger.getAccount(address), config(params[1]), "binary") };
    },
    getMultipleAccounts: (params) => {
      if (!Array.isArray(params[0])) throw new RpcError(-32602, "Invalid params: expected an array of addresses");
      if (params[0].length > MAX_MULTIPLE_ACCOUNTS) {
        throw new RpcError(-32602, `Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      }
      const cfg = config(params[1]);
      const addresses = params[0].map(requireAddress);
      return {
        context: context(),
        value: addresses.map((address) => encodeAccount(ledger.getAccount(address), cfg, "base64")),
      };
    },
    getBalance: (params) => ({
      context: context(),
      value: ledger.getAccount(requireAddress(params[0]))?.lamports ?? 0n,
    }),
    getMinimumBalanceForRentExemption: (params) => {
      const length = params[0] ?? 0;
      if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) {
        throw new RpcError(-32602, "Invalid params: data length must be a non-negative integer");
      }
      return ledger.minimumBalanceForRentExemption(BigInt(length));
    },
    getTokenAccountBalance: (params) => {
      const account = ledger.getAccount(requireAddress(params[0]));
      if (!account) throw new RpcError(-32602, "Invalid param: could not find account");
      const token = decodeTokenAccount(account);
      if (!token) throw new RpcError(-32602, "Invalid param: not a Token account");
      const mint = mintOf(token.mint);
      if (!mint) throw new RpcError(-32602, "Invalid param: could not find mint");
      return { context: context(), value: uiTokenAmount(token.amount, mint.decimals) };
    },
    getTokenSupply: (params) => {
      const mint = mintOf(requireAddress(params[0]));
      if (!mint) throw new RpcError(-32602, "Invalid param: not a Token mint");
      return { context: context(), value: uiTokenAmount(mint.supply, mint.decimals) };
    },

    simulateTransaction: (params) => {
      const cfg = config(params[1]);
      const accountsConfig = cfg.accounts === undefined || cfg.accounts === null ? undefined : config(cfg.accounts);
      const addresses = accountsConfig ? requireArray(accountsConfig.addresses, "accounts.addresses").map(requireAddress) : undefined;
      const value = ledger.simulateTransaction(transactionBytes(params, cfg), {
        sigVerify: cfg.sigVerify === true,
        replaceRecentBlockhash: cfg.replaceRecentBlockhash === true,
        innerInstructions: cfg.innerInstructions === true,
        accounts: addresses,
      });
      return {
        context: context(),
        value: {
          ...value,
          accounts: value.accounts?.map((account) => encodeAccount(account, accountsConfig ?? {}, "base64")) ?? null,
        },
      };
    },
    sendTransaction: (params) => {
      const cfg = config(params[1]);
      return ledger.sendTransaction(transactionBytes(params, cfg), { preflight: cfg.skipPreflight !== true });
    },
    getSignatureStatuses: (params) => {
      const signatures = requireArray(params[0], "signatures");
      if (signatures.length > MAX_SIGNATURE_STATUSES) {
        throw new RpcError(-32602, `Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      }
      return {
        context: context(),
        value: signatures.map((s) => {
          const status = ledger.signatureStatus(requireString(s, "signature"));
          if (!status) return null;
          const { age, level } = confirmation(status);
          return {
            slot: status.slot,
            confirmations: level === "finalized" ? null : Number(age),
            err: status.err,
            status: status.err === null ? { Ok: null } : { Err: status.err },
            confirmationStatus: level,
          };
        }),
      };
    },
    getSignaturesForAddress: (params) => {
      const address = requireAddress(params[0]);
      const cfg = config(params[1]);
      const commitment = commitmentOf(cfg) ?? "finalized";
      if (commitment === "processed") throw new RpcError(-32602, "Method does not support commitment below `confirmed`");
      const limit = cfg.limit ?? MAX_SIGNATURES_FOR_ADDRESS;
      if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) {
        throw new RpcError(-32602, `Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
      }
      // Newest first, from just before the transaction `before` (one the node does not have: nothing) down to just
      // after the transaction `until` (one it does not have: down to the oldest). Either may name any transaction.
      const place = (name: string) => {
        const signature = optionalString(cfg[name], name);
        return signature === undefined ? undefined : (ledger.processedTransaction(signature)?.sequence ?? null);
      };
      const [before, until] = [place("before"), place("until")];
      if (before === null) return [];
      const signatures = ledger.signaturesFor(address);
      const answer = [];
      for (let i = signatures.length - 1; i >= 0 && answer.length < limit; i--) {
        const signature = signatures[i]!;
        const processed = ledger.processedTransaction(signature);
        const status = ledger.signatureStatus(signature);
        if (!processed || !status || (before !== undefined && processed.sequence >= before)) continue;
        if (until !== undefined && until !== null && processed.sequence <= until) break;
        // Listed once the commitment asked for is reached, as getTransaction serves it.
        const { level } = confirmation(status);
        if (level === "processed" || (commitment === "finalized" && level !== "finalized")) continue;
        answer.push({ signature, slot: processed.slot, err: processed.err, memo: processed.memo, blockTime: processed.blockTime, confirmationStatus: level });
      }
      return answer;
    },
    getTransaction: (params) => {
      const signature = requireString(params[0], "signature");
      // The second parameter is a configuration object, or (an older form) the encoding alone.
      const cfg = typeof params[1] === "string" ? { encoding: params[1] } : config(params[1]);
      const encoding = optionalString(cfg.encoding, "encoding") ?? "json";
      if (!["json", "jsonParsed", "base64", "base58"].includes(encoding)) {
        throw new RpcError(
          -32602,
          `Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``,
        );
      }
      const commitment = optionalString(cfg.commitment, "commitment") ?? "finalized";
      if (commitment === "processed") throw new RpcError(-32602, "Method does not support commitment below `confirmed`");
      const maxVersion = cfg.maxSupportedTransactionVersion;
      if (maxVersion !== undefined && maxVersion !== null && maxVersion !== 0) {
        throw new RpcError(-32602, `Invalid params: unsupported transaction version ${String(maxVersion)}`);
      }
      const processed = ledger.processedTransaction(signature);
      const status = ledger.signatureStatus(signature);
      if (!processed || !status) return null;
      // Not served before the commitment asked for is reached, as a node does.
      const { level } = confirmation(status);
      if (level === "processed" || (commitment === "finalized" && level !== "finalized")) return null;
      const { transaction, message } = ledger.decodeTransaction(processed.wire);
      if (message.version !== "legacy" && maxVersion !== 0) {
        throw new RpcError(
          -32015,
          `Transaction version (${message.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`,
        );
      }
      const answer: Record<string, unknown> = {
        slot: processed.slot,
        blockTime: processed.blockTime,
        transaction:
          encoding === "base64"
            ? [Buffer.from(processed.wire).toString("base64"), "base64"]
            : encoding === "base58"
              ? [base58.decode(processed.wire), "base58"]
              : {
                  signatures: Object.values(transaction.signatures).map((s) => (s ? base58.decode(s) : "1".repeat(64))),
                  message: encoding === "jsonParsed" ? parsedMessage(message) : jsonMessage(message),
                },
        meta: transactionMeta(processed, encoding === "jsonParsed" ? message.staticAccounts : undefined),
      };
      if (maxVersion !== undefined && maxVersion !== null) answer.version = message.version;
      return answer;
    },
  };
}

type CompiledMessage = ReturnType<SolanaLedger["decodeMessage"]>;

/** A message in the RPC's `json` encoding: account keys and instructions by index. */
function jsonMessage(message: CompiledMessage) {
  return {
    accountKeys: message.staticAccounts,
    header: {
      numRequiredSignatures: message.header.numSignerAccounts,
      numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
    },
    recentBlockhash: message.lifetimeToken,
    instructions: message.instructions.map((ix) => ({
      programIdIndex: ix.programAddressIndex,
      accounts: ix.accountIndices ?? [],
      data: base58.decode(ix.data ?? new Uint8Array()),
      stackHeight: null,
    })),
    ...(message.version === "legacy" ? {} : { addressTableLookups: addressTableLookups(message) }),
  };
}

/**
 * A message in the `jsonParsed` encoding. Instructions are given in the form a node uses for programs it does not parse
 * (program, accounts by address, data in base58): this local chain parses none.
 */
function parsedMessage(message: CompiledMessage) {
  const writable = new Set(writableStaticAccounts(message));
  const keys = message.staticAccounts;
  return {
    accountKeys: keys.map((pubkey, i) => ({ pubkey, writable: writable.has(pubkey), signer: i < message.header.numSignerAccounts, source: "transaction" })),
    recentBlockhash: message.lifetimeToken,
    instructions: message.instructions.map((ix) => ({
      programId: keys[ix.programAddressIndex],
      accounts: (ix.accountIndices ?? []).map((i) => keys[i]),
      data: base58.decode(ix.data ?? new Uint8Array()),
      stackHeight: null,
    })),
    ...(message.version === "legacy" ? {} : { addressTableLookups: addressTableLookups(message) }),
  };
}

function addressTableLookups(message: CompiledMessage) {
  return ("addressTableLookups" in message ? (message.addressTableLookups ?? []) : []).map((l) => ({
    accountKey: l.lookupTableAddress,
    writableIndexes: l.writableIndexes,
    readonlyIndexes: l.readonlyIndexes,
  }));
}

/** A processed transaction's meta as the RPC gives it; with `keys` (jsonParsed) inner instructions name their accounts. */
function transactionMeta(p: ProcessedTransaction, keys?: readonly string[]) {
  const tokenBalance = (b: TokenBalance) => ({
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner,
    programId: b.programId,
    uiTokenAmount: uiTokenAmount(b.amount, b.decimals),
  });
  const inner = (list: InnerInstructionsJson) =>
    keys
      ? {
          index: list.index,
          instructions: list.instructions.map((ix) => ({
            programId: keys[ix.programIdIndex],
            accounts: ix.accounts.map((i) => keys[i]),
            data: ix.data,
            stackHeight: ix.stackHeight,
          })),
        }
      : list;
  return {
    err: p.err,
    status: p.err === null ? { Ok: null } : { Err: p.err },
    fee: p.fee,
    preBalances: p.preBalances,
    postBalances: p.postBalances,
    innerInstructions: p.innerInstructions.map(inner),
    logMessages: p.logs,
    preTokenBalances: p.preTokenBalances.map(tokenBalance),
    postTokenBalances: p.postTokenBalances.map(tokenBalance),
    rewards: [],
    // Address lookup tables are not resolved by this chain: a transaction's accounts are its static keys.
    ...(keys ? {} : { loadedAddresses: { writable: [], readonly: [] } }),
    computeUnitsConsumed: p.computeUnitsConsumed,
  };
}

function commitmentOf(cfg: Record<string, unknown>): Commitment | undefined {
  const commitment = optionalString(cfg.commitment, "commitment");
  if (commitment === undefined || commitment === "processed" || commitment === "confirmed" || commitment === "finalized") return commitment;
  throw new RpcError(-32602, `Invalid params: unknown variant \`${commitment}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``);
}

function config(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new RpcError(-32602, "Invalid params: expected a configuration object");
  return v as Record<string, unknown>;
}

function requireString(v: unknown, name: string): string {
  if (typeof v !== "string") throw new RpcError(-32602, `Invalid params: ${name} must be a string`);
  return v;
}

function optionalString(v: unknown, name: string): string | undefined {
  return v === undefined || v === null ? undefined : requireString(v, name);
}

function requireArray(v: unknown, name: string): unknown[] {
  if (!Array.isArray(v)) throw new RpcError(-32602, `Invalid params: ${name} must be an array`);
  return v;
}

function requireAddress(v: unknown): string {
  if (typeof v !== "string" || !isAddress(v)) throw new RpcError(-32602, "Invalid param: Invalid");
  return v;
}

function bytesFromBase58(text: string): Uint8Array {
  try {
    return new Uint8Array(fromBase58.encode(text));
  } catch {
    throw new RpcError(-32602, "invalid transaction: invalid base58 encoding");
  }
}

function dataSlice(v: unknown, data: Uint8Array): Uint8Array {
  if (v === undefined || v === null) return data;
  const { offset, length } = config(v);
  if (typeof offset !== "number" || typeof length !== "number" || offset < 0 || length < 0) {
    throw new RpcError(-32602, "Invalid params: dataSlice needs a non-negative offset and length");
  }
  return data.subarray(offset, offset + length);
}

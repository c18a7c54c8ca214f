/**
 * litesvm reports transaction errors as numbers (its const enums, which `isolatedModules` cannot import) or
 * as small native objects. These turn them into the JSON the Solana RPC uses, e.g. "BlockhashNotFound" or
 * {"InstructionError": [2, {"Custom": 1}]}.
 */

// Order = litesvm's TransactionErrorFieldless enum (dist/internal.d.ts).
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

// Order = litesvm's InstructionErrorFieldless enum.
const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

export type TransactionErrorJson = string | Record<string, unknown>;

type NativeError = {
  constructor?: { name?: string };
  index?: unknown;
  accountIndex?: unknown;
  code?: unknown;
  msg?: unknown;
  err?: unknown;
};

export function transactionErrorJson(err: unknown): TransactionErrorJson {
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? `TransactionError(${err})`;
  if (typeof err === "object" && err !== null) {
    const e = err as NativeError;
    const name = e.constructor?.name ?? "";
    if (typeof e.err === "function" && typeof e.index === "number") {
      return { InstructionError: [e.index, instructionErrorJson((e.err as () => unknown).call(err))] };
    }
    if (typeof e.index === "number") return { DuplicateInstruction: e.index };
    if (typeof e.accountIndex === "number") {
      const key = name.includes("ProgramExecutionTemporarilyRestricted") ? "ProgramExecutionTemporarilyRestricted" : "InsufficientFundsForRent";
      return { [key]: { account_index: e.accountIndex } };
    }
  }
  return String(err);
}

function instructionErrorJson(err: unknown): unknown {
  if (typeof err === "number") return INSTRUCTION_ERRORS[err] ?? `InstructionError(${err})`;
  if (typeof err === "object" && err !== null) {
    const e = err as NativeError;
    if (typeof e.code === "number") return { Custom: e.code };
    if (typeof e.msg === "string") return { BorshIoError: e.msg };
  }
  return String(err);
}

import { address, createSolanaRpc, getBase64Encoder, getCompiledTransactionMessageDecoder } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { PaymentRequirements } from "@x402/core/types";
import { erc20Abi, type Address } from "viem";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import type { PaymentIdentity } from "./identity";
import { verdictClient } from "./verdict";

/**
 * What a payer's account held when the shop read it, before recording a payment: the payment is sent only if this
 * covers it beside the payer's other payments the shop has in flight (see beginSettlement). Verifying each payment
 * against the balance alone is not enough: several payments of one payer verified at once all see the same balance.
 */
export type PayerFunds = {
  /** The payer as the shop keeps it (EVM: the authorization's `from`, lowercase; Solana: the transfer's authority). */
  payer: string;
  /** The USDC (atomic units) of the account the payment would take them from. */
  balance: bigint;
};

/** The funds read, or why not: the node never answered (nothing is sent blind), or the payment names no account to read. */
export type FundsRead = { funds: PayerFunds } | { unanswered: true } | { unreadable: string };

/** A read the node did not answer is made this many times at most, as the verification's checks are. */
const READ_ATTEMPTS = 3;
const READ_PAUSE_MS = 500;

/** The Token-2022 program, which x402's Solana payments may use beside the classic token program. */
const TOKEN_2022_PROGRAM_ADDRESS = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
/** The token programs' TransferChecked instruction (its first data byte), the one x402's Solana payments make. */
const TRANSFER_CHECKED = 12;

/**
 * Starts reading the funds of the payer of `identity` now (so that the read runs beside the payment's verification),
 * and answers a function that gives them: read once more, with its own few tries, if the node was silent the first
 * time (a node briefly down while the verification waited for it answers again by then).
 */
export function readPayerFunds(networks: readonly PaymentNetwork[], requirement: PaymentRequirements, identity: PaymentIdentity): () => Promise<FundsRead> {
  const first = fundsOf(networks, requirement, identity);
  return async () => {
    const read = await first;
    return "unanswered" in read ? fundsOf(networks, requirement, identity) : read;
  };
}

async function fundsOf(networks: readonly PaymentNetwork[], requirement: PaymentRequirements, identity: PaymentIdentity): Promise<FundsRead> {
  const n = networks.find((x) => x.network === requirement.network);
  if (n?.kind === "evm" && identity.authorization) {
    const from = identity.authorization.from;
    return withTries(from, () => evmBalance(n, requirement.asset as Address, from));
  }
  if (n?.kind === "solana" && identity.solana) {
    const transfer = solanaTransferAccounts(identity.solana.message);
    if (!transfer) return { unreadable: "The payment's transaction names no token account to pay from (a TransferChecked among its own accounts)" };
    return withTries(transfer.authority, () => solanaBalance(n, transfer.source));
  }
  return { unreadable: `No payer's funds can be read for network ${requirement.network}` };
}

/** Reads a balance, a few times while the node does not answer. */
async function withTries(payer: string, read: () => Promise<bigint>): Promise<FundsRead> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { funds: { payer, balance: await read() } };
    } catch {
      if (attempt >= READ_ATTEMPTS) return { unanswered: true };
      await new Promise((r) => setTimeout(r, READ_PAUSE_MS * attempt));
    }
  }
}

/** The payer's USDC on an EVM network: the token's balanceOf at the node's latest block. */
function evmBalance(n: EvmNetwork, token: Address, owner: Address): Promise<bigint> {
  return verdictClient(n).readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
}

/** A Solana token account's amount at `confirmed` (what the payment's transfer would see). */
async function solanaBalance(n: SolanaNetwork, account: string): Promise<bigint> {
  const answer = await createSolanaRpc(n.rpcUrl).getTokenAccountBalance(address(account), { commitment: "confirmed" }).send();
  return BigInt(answer.value.amount);
}

/**
 * The source token account and the authority of a Solana payment's transfer (its TransferChecked: source, mint,
 * destination, authority), from the message's own accounts; undefined when it has none there (an account named
 * through an address lookup table is not read).
 */
export function solanaTransferAccounts(message: string): { source: string; authority: string } | undefined {
  let compiled: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>["decode"]>;
  try {
    compiled = getCompiledTransactionMessageDecoder().decode(getBase64Encoder().encode(message));
  } catch {
    return undefined;
  }
  const accounts: readonly string[] = compiled.staticAccounts;
  for (const ix of compiled.instructions) {
    const program = accounts[ix.programAddressIndex];
    if ((program !== TOKEN_PROGRAM_ADDRESS && program !== TOKEN_2022_PROGRAM_ADDRESS) || ix.data?.[0] !== TRANSFER_CHECKED) continue;
    const [sourceIndex, , , authorityIndex] = ix.accountIndices ?? [];
    const source = sourceIndex === undefined ? undefined : accounts[sourceIndex];
    const authority = authorityIndex === undefined ? undefined : accounts[authorityIndex];
    if (source && authority) return { source, authority };
  }
  return undefined;
}

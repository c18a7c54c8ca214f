import { randomBytes } from "node:crypto";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintEncoder,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  getTransactionEncoder,
  isAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { SolanaLedger, type LedgerAccount } from "./ledger";
import { LOCALNET_GENESIS_HASH, LOCALNET_SOLANA_NAME, LOCALNET_SOLANA_NETWORK, LOCALNET_USDC_DECIMALS } from "./network";
import { createRpcMethods } from "./rpc-methods";
import { startRpcServer } from "./rpc-server";
import { decodeMintAccount, decodeTokenAccount } from "./spl-token";
import { readStateFile, StateWriter, type SolanaChainState, type StoredAccount } from "./state-file";

export type SolanaDevChain = {
  /** CAIP-2, "solana:<first 32 chars of the genesis hash>"; not a real cluster's. */
  network: `solana:${string}`;
  name: string;
  /** JSON-RPC endpoint on 127.0.0.1. */
  rpcUrl: string;
  usdc: { mint: string; decimals: 6 };
  /** Mints USDC (atomic units) to `owner`'s associated token account, creating it if missing. */
  mintUsdc(owner: string, amountAtomic: bigint): Promise<string /* signature */>;
  /** USDC (atomic units) in `owner`'s associated token account; 0 when it has none. */
  usdcBalance(owner: string): Promise<bigint>;
  /** Sets the account's SOL balance to `lamports` (its owner and data are kept). */
  airdrop(address: string, lamports: bigint): void;
  /** Closes the RPC server and its connections, and writes the state file. */
  stop(): Promise<void>;
};

export type StartSolanaChainOptions = {
  /** Where the chain keeps its keys and accounts across restarts; without it every start is a fresh chain. */
  stateFile?: string;
  /** Accounts given 100 SOL at start (topped up to that, never lowered): the facilitator's fee payers. */
  feePayers?: string[];
  /** Wallets whose USDC associated token accounts must exist at start: the shop's payTo. */
  tokenOwners?: string[];
  /**
   * Report transactions as a cluster does: `processed` in their slot, `confirmed` once the slot clock (400 ms) has
   * moved on, `finalized` 32 slots later. Off: every landed transaction reads `finalized` at once.
   */
  confirmBySlot?: boolean;
};

const LAMPORTS_PER_SOL = 1_000_000_000n;
const FEE_PAYER_LAMPORTS = 100n * LAMPORTS_PER_SOL;
/** The mint authority pays for the faucet's transactions and token accounts. */
const AUTHORITY_LAMPORTS = 10n * LAMPORTS_PER_SOL;
const AUTHORITY_MIN_LAMPORTS = LAMPORTS_PER_SOL;
const MEMO_PROGRAM_ADDRESS = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const SYSTEM_PROGRAM_ADDRESS = "11111111111111111111111111111111";
const U64_MAX = (1n << 64n) - 1n;

/**
 * Starts a local Solana chain in this process: litesvm behind a JSON-RPC server on 127.0.0.1 and a free port,
 * with a USDC-like SPL mint (6 decimals) whose mint authority this module holds.
 */
export async function startSolanaChain(opts: StartSolanaChainOptions = {}): Promise<SolanaDevChain> {
  const saved = opts.stateFile ? readStateFile(opts.stateFile) : null;
  const mintSecret = saved?.mint.secretKey ?? newSecret();
  const authoritySecret = saved?.mintAuthority.secretKey ?? newSecret();
  const mintKey = await signerFromSecret(mintSecret);
  const authority = await signerFromSecret(authoritySecret);
  if (saved && (saved.mint.address !== mintKey.address || saved.mintAuthority.address !== authority.address)) {
    throw new Error(`The Solana devnet state file ${opts.stateFile} has keys that do not match their addresses`);
  }
  const mint = mintKey.address;
  const genesisTimeMs = saved?.genesisTimeMs ?? Date.now();

  /** Every account a transaction or the faucet has written: what the state file keeps. */
  const kept = new Set<string>();
  let writer: StateWriter | undefined;
  const ledger = new SolanaLedger(genesisTimeMs, (addresses) => {
    for (const a of addresses) kept.add(a);
    writer?.schedule();
  });

  const snapshot = (): SolanaChainState => {
    const accounts: Record<string, StoredAccount> = {};
    for (const a of kept) {
      const account = ledger.getAccount(a);
      if (!account || account.executable) continue;
      accounts[a] = {
        lamports: account.lamports.toString(),
        owner: account.owner,
        data: Buffer.from(account.data).toString("base64"),
        executable: false,
      };
    }
    return {
      version: 1,
      genesisTimeMs,
      mint: { address: mint, secretKey: mintSecret },
      mintAuthority: { address: authority.address, secretKey: authoritySecret },
      accounts,
    };
  };

  for (const [a, stored] of Object.entries(saved?.accounts ?? {})) {
    ledger.setAccount(restoredAccount(a, stored, opts.stateFile ?? ""), { persist: false });
    kept.add(a);
  }
  if (opts.stateFile) writer = new StateWriter(opts.stateFile, snapshot);

  if (!decodeMintAccount(ledger.getAccount(mint))) {
    ledger.setAccount({
      address: mint,
      lamports: ledger.minimumBalanceForRentExemption(BigInt(getMintSize())),
      owner: TOKEN_PROGRAM_ADDRESS,
      data: new Uint8Array(
        getMintEncoder().encode({
          mintAuthority: authority.address,
          supply: 0n,
          decimals: LOCALNET_USDC_DECIMALS,
          isInitialized: true,
          freezeAuthority: null,
        }),
      ),
      executable: false,
    });
  }

  const setLamports = (a: string, lamports: bigint) => {
    const current = ledger.getAccount(a);
    ledger.setAccount(current ? { ...current, lamports } : { address: a, lamports, owner: SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array(), executable: false });
  };
  const topUp = (a: string, atLeast: bigint, to: bigint) => {
    if ((ledger.getAccount(a)?.lamports ?? 0n) < atLeast) setLamports(a, to);
  };

  /** Sends the faucet's own transaction (fee payer: the mint authority) through the same path as RPC clients. */
  const submit = async (instructions: Instruction[]): Promise<string> => {
    topUp(authority.address, AUTHORITY_MIN_LAMPORTS, AUTHORITY_LAMPORTS);
    // A random memo: two equal faucet calls in the same slot would otherwise be the same transaction.
    const memo: Instruction = {
      programAddress: MEMO_PROGRAM_ADDRESS,
      data: new TextEncoder().encode(`devnet faucet ${randomBytes(8).toString("hex")}`),
    };
    const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(authority, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight }, m),
      (m) => appendTransactionMessageInstructions([...instructions, memo], m),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    return ledger.sendTransaction(new Uint8Array(getTransactionEncoder().encode(transaction)), { preflight: true });
  };

  const usdcAccount = async (owner: string): Promise<{ owner: Address; ata: Address }> => {
    const ownerAddress = requireAddress(owner);
    const [ata] = await findAssociatedTokenPda({ owner: ownerAddress, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    return { owner: ownerAddress, ata };
  };
  const createAtaInstruction = (owner: Address, ata: Address) => getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner, mint });

  let stopped = false;
  const assertRunning = () => {
    if (stopped) throw new Error("The local Solana chain has been stopped");
  };

  topUp(authority.address, AUTHORITY_LAMPORTS, AUTHORITY_LAMPORTS);
  for (const feePayer of opts.feePayers ?? []) {
    topUp(requireAddress(feePayer), FEE_PAYER_LAMPORTS, FEE_PAYER_LAMPORTS);
  }
  for (const owner of opts.tokenOwners ?? []) {
    const { owner: ownerAddress, ata } = await usdcAccount(owner);
    if (!decodeTokenAccount(ledger.getAccount(ata))) await submit([createAtaInstruction(ownerAddress, ata)]);
  }

  const server = await startRpcServer(createRpcMethods(ledger, LOCALNET_GENESIS_HASH, { confirmBySlot: opts.confirmBySlot ?? false }));
  writer?.schedule();

  return {
    network: LOCALNET_SOLANA_NETWORK,
    name: LOCALNET_SOLANA_NAME,
    rpcUrl: server.url,
    usdc: { mint, decimals: LOCALNET_USDC_DECIMALS },

    async mintUsdc(owner, amountAtomic) {
      assertRunning();
      if (amountAtomic < 0n || amountAtomic > U64_MAX) throw new Error(`Cannot mint ${amountAtomic} atomic USDC`);
      const { owner: ownerAddress, ata } = await usdcAccount(owner);
      return submit([
        createAtaInstruction(ownerAddress, ata),
        getMintToCheckedInstruction({
          mint,
          token: ata,
          mintAuthority: authority,
          amount: amountAtomic,
          decimals: LOCALNET_USDC_DECIMALS,
        }),
      ]);
    },

    async usdcBalance(owner) {
      const { ata } = await usdcAccount(owner);
      return decodeTokenAccount(ledger.getAccount(ata))?.amount ?? 0n;
    },

    airdrop(a, lamports) {
      assertRunning();
      if (lamports < 0n || lamports > U64_MAX) throw new Error(`Cannot set a balance of ${lamports} lamports`);
      setLamports(requireAddress(a), lamports);
    },

    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      await writer?.flush();
    },
  };
}

function newSecret(): string {
  return getBase58Decoder().decode(randomBytes(32));
}

function signerFromSecret(secret: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(getBase58Encoder().encode(secret)));
}

function requireAddress(a: string): Address {
  if (!isAddress(a)) throw new Error(`Not a Solana address: ${a}`);
  return a;
}

function restoredAccount(a: string, stored: StoredAccount, file: string): LedgerAccount {
  if (!isAddress(a) || !/^\d+$/.test(stored.lamports) || !isAddress(stored.owner) || typeof stored.data !== "string") {
    throw new Error(`The Solana devnet state file ${file} has a malformed account ${a}`);
  }
  return {
    address: a,
    lamports: BigInt(stored.lamports),
    owner: stored.owner,
    data: new Uint8Array(Buffer.from(stored.data, "base64")),
    executable: stored.executable === true,
  };
}

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
  type Instruction,
} from "@solana/kit";
import { createWalletClient, erc20Abi, getAddress, http, isAddress as isEvmAddress, publicActions } from "viem";
import type { Devnet } from "@/lib/devnet";
import { anvilRpc } from "@/lib/devnet/evm/rpc";
import { viemChain } from "@/lib/payments/facilitator";
import type { EvmNetwork, SolanaNetwork } from "@/lib/payments/networks";
import type { Payout } from "./refund";

const CONFIRM_TIMEOUT_MS = 30_000;
/** Gas money for the payTo wallet, which only ever receives USDC: the devnet sets it rather than mints it. */
const PAYTO_GAS_WEI = 10n ** 18n;
const MEMO_PROGRAM_ADDRESS = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/**
 * Refunds on the devnet: a real USDC transfer from the shop's payTo wallet back to the payer, on the network the
 * invoice was paid on. Transfers on one network go one after another (the payTo wallet's EVM nonces).
 */
export function devnetPayout(devnet: Pick<Devnet, "networks" | "keys">): Payout {
  const queues = new Map<string, Promise<unknown>>();
  const queued = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    queues.set(key, next);
    return next;
  };

  return (to, amountAtomic) => {
    const n = devnet.networks.find((x) => x.network === to.network);
    if (!n) return Promise.reject(new Error(`The devnet has no network ${to.network}`));
    if (amountAtomic <= 0n) return Promise.reject(new Error(`Cannot refund ${amountAtomic} atomic USDC`));
    return queued(n.network, () => (n.kind === "evm" ? evmTransfer(n, devnet.keys, to.payer, amountAtomic) : solanaTransfer(n, devnet.keys, to.payer, amountAtomic)));
  };
}

async function evmTransfer(n: EvmNetwork, keys: Devnet["keys"], payer: string, amount: bigint): Promise<string> {
  if (!isEvmAddress(payer, { strict: false })) throw new Error(`Not an EVM address: ${payer}`);
  const account = keys.evmPayTo;
  const client = createWalletClient({ account, chain: viemChain(n), transport: http(n.rpcUrl), pollingInterval: 100 }).extend(publicActions);
  if ((await client.getBalance({ address: account.address })) < PAYTO_GAS_WEI / 10n) {
    await anvilRpc(n.rpcUrl, "anvil_setBalance", [account.address, `0x${PAYTO_GAS_WEI.toString(16)}`]);
  }
  const hash = await client.writeContract({ address: n.usdc.address, abi: erc20Abi, functionName: "transfer", args: [getAddress(payer), amount] });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: CONFIRM_TIMEOUT_MS });
  if (receipt.status !== "success") throw new Error(`The refund transfer ${hash} reverted`);
  return hash;
}

/**
 * An SPL `transferChecked` from the payTo token account to the payer's, created if missing. The devnet's gas wallet
 * pays the fee and the new account's rent: the payTo wallet holds no SOL, and the devnet has no public airdrop.
 */
async function solanaTransfer(n: SolanaNetwork, keys: Devnet["keys"], payer: string, amount: bigint): Promise<string> {
  if (!isAddress(payer)) throw new Error(`Not a Solana address: ${payer}`);
  const rpc = createSolanaRpc(n.rpcUrl);
  const mint = address(n.usdc.mint);
  const owner = address(payer);
  const [source] = await findAssociatedTokenPda({ owner: keys.solanaPayTo.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [destination] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  // Two refunds of the same amount to the same wallet within one blockhash would otherwise be one transaction.
  const memo: Instruction = { programAddress: MEMO_PROGRAM_ADDRESS, data: new TextEncoder().encode(`refund ${randomBytes(8).toString("hex")}`) };
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(keys.solanaFacilitator, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({ payer: keys.solanaFacilitator, ata: destination, owner, mint }),
          getTransferCheckedInstruction({ source, mint, destination, authority: keys.solanaPayTo, amount, decimals: n.usdc.decimals }),
          memo,
        ],
        m,
      ),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(transaction);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64" }).send();
  const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
  for (;;) {
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    if (status?.err) throw new Error(`The refund transfer ${signature} failed: ${JSON.stringify(status.err, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`);
    if (status) return signature;
    if (Date.now() > deadline) throw new Error(`The refund transfer ${signature} was not confirmed within ${CONFIRM_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

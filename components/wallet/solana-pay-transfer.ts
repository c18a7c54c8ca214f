import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from "@solana/kit";

/** A Solana Pay transfer request, as an invoice's payment names it: USDC to the shop's wallet, with the invoice's reference. */
export type SolanaPayTransfer = { recipient: string; mint: string; decimals: number; amount: bigint; reference: string };

/**
 * Sends a Solana Pay transfer from a wallet, as a Solana Pay wallet does from the payment URI: a `transferChecked` of
 * the USDC from the wallet's token account to the recipient's, with the reference as a read-only account of the
 * transfer (how the shop finds it), the wallet paying its fee (or `feePayer`). Its signature once the node took it.
 */
export async function sendSolanaPayTransfer(
  signer: TransactionSigner,
  rpcUrl: string,
  t: SolanaPayTransfer,
  feePayer: TransactionSigner = signer,
): Promise<string> {
  const rpc = createSolanaRpc(rpcUrl);
  const mint = address(t.mint);
  const [[source], [destination]] = await Promise.all([
    findAssociatedTokenPda({ owner: signer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
    findAssociatedTokenPda({ owner: address(t.recipient), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
  ]);
  const transfer = getTransferCheckedInstruction({ source, mint, destination, authority: signer, amount: t.amount, decimals: t.decimals });
  const withReference = { ...transfer, accounts: [...transfer.accounts, { address: address(t.reference), role: AccountRole.READONLY }] };
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions([withReference], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", preflightCommitment: "confirmed" }).send();
  return getSignatureFromTransaction(signed);
}

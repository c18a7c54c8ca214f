"use client";

// The Solana wallet stack (the wallet adapter, @solana/kit, the x402 SVM scheme): loaded only when the shopper picks a
// Solana wallet, or comes back after having picked one (wallet-providers.tsx).
import { address as toAddress, getTransactionDecoder, getTransactionEncoder, type Transaction, type TransactionModifyingSigner } from "@solana/kit";
import { WalletNotReadyError, type WalletError } from "@solana/wallet-adapter-base";
import { ConnectionProvider, useWallet, WalletProvider } from "@solana/wallet-adapter-react";
import { VersionedTransaction } from "@solana/web3.js";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { useEffect, useMemo } from "react";
import { registerSolanaBurner } from "./burner/solana-burner";
import { SolanaWalletDialogProvider, useSolanaWalletDialog } from "./solana-wallet-dialog";
import type { FamilyProps, ShopWallet } from "./use-shop-wallet";

/**
 * The wallet adapter logs every wallet error to the console by default. Each action that can fail (connect, sign,
 * pay) explains its own failure on the page; only a failed automatic reconnection has nobody to tell.
 */
function quietWalletError(error: WalletError) {
  if (error instanceof WalletNotReadyError || error.name === "WalletConnectionError") console.warn("The Solana wallet did not reconnect:", error.message);
}

/** The wallet adapter and the Solana wallet picker, telling the page of the connected Solana wallet. */
export default function SolanaFamily({ setup, publish }: FamilyProps) {
  useEffect(() => void registerSolanaBurner(setup), [setup]);
  return (
    <ConnectionProvider endpoint={setup.solana.rpcUrl}>
      <WalletProvider wallets={[]} autoConnect onError={quietWalletError}>
        <SolanaWalletDialogProvider>
          <SolanaBridge setup={setup} publish={publish} />
        </SolanaWalletDialogProvider>
      </WalletProvider>
    </ConnectionProvider>
  );
}

function SolanaBridge({ setup, publish }: FamilyProps) {
  const solana = useWallet();
  const open = useSolanaWalletDialog();
  const rpcUrl = setup.solana.rpcUrl;

  // The adapter's context object is new on every render: the wallet is made of its stable parts only, so that it is
  // the same object (and published once) until the connection changes.
  const { connected, publicKey, signMessage, signTransaction, disconnect } = solana;
  const name = solana.wallet?.adapter.name;
  const wallet = useMemo((): ShopWallet | null => {
    if (!connected || !publicKey || !signMessage || !signTransaction) return null;
    const address = publicKey.toBase58();
    return {
      family: "solana",
      address,
      id: `solana:${address}`,
      name: name ?? "Solana wallet",
      siwxSigner: { publicKey: address, signMessage },
      async paymentScheme() {
        return new ExactSvmScheme(walletAdapterSigner(address, signTransaction), { rpcUrl });
      },
      async sendSolanaPay(transfer) {
        // Loaded when first used: the token program's client stays out of the pages that never send one.
        const { sendSolanaPayTransfer } = await import("./solana-pay-transfer");
        return sendSolanaPayTransfer(walletAdapterSigner(address, signTransaction), rpcUrl, transfer);
      },
      disconnect: () => void disconnect(),
    };
  }, [connected, publicKey, signMessage, signTransaction, disconnect, name, rpcUrl]);

  // The adapter connects a remembered wallet by itself (autoConnect): while one that can connect is chosen and not yet
  // connected, no wallet is ruled out (the providers stop waiting after RESTORE_LIMIT_MS, should it never answer).
  const ready = solana.wallet?.readyState === "Installed" || solana.wallet?.readyState === "Loadable";
  const settling = solana.connecting || (ready && !solana.connected && !solana.disconnecting);
  useEffect(() => publish({ wallet, open, settling }), [publish, wallet, open, settling]);
  useEffect(() => () => publish(null), [publish]);
  return null;
}

/**
 * A @solana/kit signer backed by the wallet adapter (which speaks @solana/web3.js v1): the transaction crosses as
 * wire bytes, and the wallet's signed version comes back whole (a wallet may add instructions, e.g. Phantom's guards).
 */
function walletAdapterSigner(owner: string, signTransaction: <T extends VersionedTransaction>(tx: T) => Promise<T>): TransactionModifyingSigner {
  const encoder = getTransactionEncoder();
  const decoder = getTransactionDecoder();
  return {
    address: toAddress(owner),
    async modifyAndSignTransactions(transactions) {
      type Signed = Awaited<ReturnType<TransactionModifyingSigner["modifyAndSignTransactions"]>>[number];
      const signed: Signed[] = [];
      for (const tx of transactions) {
        const v1 = VersionedTransaction.deserialize(new Uint8Array(encoder.encode(tx)));
        const result = await signTransaction(v1);
        // Same wire format both ways; the wallet keeps the lifetime (blockhash) of the message it signed.
        signed.push(decoder.decode(result.serialize()) as Transaction as Signed);
      }
      return signed;
    },
  };
}

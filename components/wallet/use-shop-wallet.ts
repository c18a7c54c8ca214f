"use client";

import { address as toAddress, getTransactionDecoder, getTransactionEncoder, type Transaction, type TransactionModifyingSigner } from "@solana/kit";
import { useWallet } from "@solana/wallet-adapter-react";
import { VersionedTransaction } from "@solana/web3.js";
import type { SchemeNetworkClient } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import type { SIWxSigner } from "@x402/extensions/sign-in-with-x";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { useMemo } from "react";
import { useAccount, useConfig } from "wagmi";
import { disconnect, getWalletClient, switchChain } from "wagmi/actions";
import { useWalletSetup } from "./wallet-providers";

/** The connected wallet as checkout sees it, whichever family it is. */
export type ShopWallet = {
  family: "eip155" | "solana";
  address: string;
  /** Chain-free id, as the shop keys wallets (`eip155:0x…`, `solana:<address>`): one session per id. */
  id: string;
  /** The wallet's name as its connector gives it. */
  name: string;
  siwxSigner: SIWxSigner;
  /** The x402 payment scheme for a network, switching the EVM wallet to that chain first. */
  paymentScheme(network: string): Promise<SchemeNetworkClient>;
  disconnect(): void;
};

/**
 * The wallet to check out with: the EVM wallet connected through RainbowKit/wagmi, else the Solana wallet connected
 * through the wallet adapter (if both are, the one connected last is not tracked: EVM wins).
 */
export function useShopWallet(): ShopWallet | null {
  const setup = useWalletSetup();
  const wagmiConfig = useConfig();
  const evm = useAccount();
  const solana = useWallet();

  return useMemo((): ShopWallet | null => {
    if (evm.status === "connected" && evm.address) {
      const address = evm.address;
      return {
        family: "eip155",
        address,
        id: `eip155:${address}`,
        name: evm.connector?.name ?? "EVM wallet",
        siwxSigner: {
          address,
          signMessage: async ({ message }: { message: string }) => (await getWalletClient(wagmiConfig)).signMessage({ account: address, message }),
        },
        async paymentScheme(network) {
          const chainId = Number(network.split(":")[1]);
          if (evm.chainId !== chainId) await switchChain(wagmiConfig, { chainId });
          const client = await getWalletClient(wagmiConfig, { chainId });
          return new ExactEvmScheme({
            address,
            signTypedData: (m) => client.signTypedData({ account: address, ...(m as Parameters<typeof client.signTypedData>[0]) }),
          });
        },
        // Through wagmi, so its state follows (connector.disconnect() alone leaves the page connected).
        disconnect: () => void disconnect(wagmiConfig, { connector: evm.connector }),
      };
    }
    if (solana.connected && solana.publicKey && solana.signMessage && solana.signTransaction) {
      const address = solana.publicKey.toBase58();
      const signMessage = solana.signMessage;
      const signTransaction = solana.signTransaction;
      return {
        family: "solana",
        address,
        id: `solana:${address}`,
        name: solana.wallet?.adapter.name ?? "Solana wallet",
        siwxSigner: { publicKey: address, signMessage },
        async paymentScheme() {
          return new ExactSvmScheme(walletAdapterSigner(address, signTransaction), { rpcUrl: setup.solana.rpcUrl });
        },
        disconnect: () => void solana.disconnect(),
      };
    }
    return null;
  }, [evm.status, evm.address, evm.chainId, evm.connector, solana, wagmiConfig, setup.solana]);
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

"use client";

import type { SchemeNetworkClient } from "@x402/core/types";
import type { SIWxSigner } from "@x402/extensions/sign-in-with-x";
import { createContext, useContext } from "react";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import type { SolanaPayTransfer } from "./solana-pay-transfer";

/** The two wallet families, each with its own stack, loaded when the shopper picks it (see wallet-providers.tsx). */
export type WalletFamily = "eip155" | "solana";

/** The connected wallet as checkout sees it, whichever family it is. */
export type ShopWallet = {
  family: WalletFamily;
  address: string;
  /** Chain-free id, as the shop keys wallets (`eip155:0x…`, `solana:<address>`): one session per id. */
  id: string;
  /** The wallet's name as its connector gives it. */
  name: string;
  siwxSigner: SIWxSigner;
  /** The x402 payment scheme for a network, switching the EVM wallet to that chain first. */
  paymentScheme(network: string): Promise<SchemeNetworkClient>;
  /**
   * EVM wallets: sends a plain transaction on a network (ether to an address, or a token's `transfer`), switching to
   * its chain first; its hash once the wallet sent it.
   */
  sendTransfer?(network: string, transfer: { to: `0x${string}`; value?: bigint; data?: `0x${string}` }): Promise<string>;
  /** Solana wallets: sends a Solana Pay transfer (USDC with an invoice's reference); its signature once the node took it. */
  sendSolanaPay?(transfer: SolanaPayTransfer): Promise<string>;
  disconnect(): void;
};

/** What a loaded family tells the pages: its connected wallet (or none) and how to open its wallet picker (once it can). */
export type FamilyState = {
  wallet: ShopWallet | null;
  open: (() => void) | undefined;
  /** Why the last connection attempt ended without a wallet (one that did not answer), until the next attempt. */
  problem?: string | null;
  /** Still (re)connecting a wallet remembered from an earlier visit: no wallet yet, and none ruled out. */
  settling?: boolean;
};

/** What a family's module (evm-family.tsx, solana-family.tsx) is given. */
export type FamilyProps = { setup: WalletSetup; publish: (state: FamilyState | null) => void };

export type WalletState = {
  setup: WalletSetup;
  families: Partial<Record<WalletFamily, FamilyState>>;
  /** The family whose stack is being loaded, if any. */
  loading: WalletFamily | null;
  /**
   * A wallet chosen on an earlier visit may still come back: its family's stack is loading or reconnecting. Pages wait
   * for it before they ask the shopper to connect one (RESTORE_LIMIT_MS at most).
   */
  restoring: boolean;
  /** Loads a family's stack if it is not yet, then opens its wallet picker. */
  connect(family: WalletFamily): void;
  /** Forgets a family chosen earlier: the next visit does not load it before it is chosen again. */
  forget(family: WalletFamily): void;
};

export const WalletStateContext = createContext<WalletState | null>(null);

export function useWalletState(): WalletState {
  const state = useContext(WalletStateContext);
  if (!state) throw new Error("The wallet hooks are used inside <WalletProviders>");
  return state;
}

/** Whether a remembered wallet may still come back (see WalletState.restoring). */
export function useWalletRestoring(): boolean {
  return useWalletState().restoring;
}

/** The deployment's networks, as the server described them. */
export function useWalletSetup(): WalletSetup {
  return useWalletState().setup;
}

/**
 * The wallet to check out with: the EVM wallet connected through RainbowKit/wagmi, else the Solana wallet connected
 * through the wallet adapter (if both are, the one connected last is not tracked: EVM wins). Null until the shopper
 * chose a family and connected a wallet of it.
 */
export function useShopWallet(): ShopWallet | null {
  const { families } = useWalletState();
  return families.eip155?.wallet ?? families.solana?.wallet ?? null;
}

import type { WalletList } from "@rainbow-me/rainbowkit";
import { injectedWallet, metaMaskWallet, rainbowWallet, walletConnectWallet } from "@rainbow-me/rainbowkit/wallets";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import { burnerWallet } from "./burner/evm-burner";

/**
 * The EVM wallets RainbowKit offers: injected and EIP-6963 wallets always; WalletConnect-based ones only with a
 * project id; the burner only in devnet mode, where it needs no extension to try the shop.
 */
export function evmWalletList(setup: Pick<WalletSetup, "mode" | "walletConnectProjectId">): WalletList {
  const wallets = setup.walletConnectProjectId ? [injectedWallet, metaMaskWallet, rainbowWallet, walletConnectWallet] : [injectedWallet];
  return [...(setup.mode === "devnet" ? [{ groupName: "Devnet", wallets: [burnerWallet] }] : []), { groupName: "Wallets", wallets }];
}

import type { Wallet, WalletList } from "@rainbow-me/rainbowkit";
import { injectedWallet, metaMaskWallet, rainbowWallet, walletConnectWallet } from "@rainbow-me/rainbowkit/wallets";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import { burnerWallet } from "./burner/evm-burner";
import { WALLET_ANSWER_MS, WalletNoAnswerError } from "./injected";

type CreateWallet = WalletList[number]["wallets"][number];

const noAnswerListeners = new Set<(walletName: string) => void>();

/** Heard when a wallet of the list left a connection request unanswered (see `answeringWithin`). */
export function onWalletNoAnswer(listener: (walletName: string) => void): () => void {
  noAnswerListeners.add(listener);
  return () => void noAnswerListeners.delete(listener);
}

/**
 * The wallet, whose connection request fails with WalletNoAnswerError when the wallet does not answer within `ms` (an
 * extension that is locked, or that never opens its window): RainbowKit would show its spinner for ever. RainbowKit
 * asks the wallet's chain (`getChainId`) before it connects, so both calls are bounded.
 */
export function answeringWithin(create: CreateWallet, ms = WALLET_ANSWER_MS): CreateWallet {
  return (params) => {
    const wallet = create(params);
    /** The call, or WalletNoAnswerError (heard by onWalletNoAnswer's listeners) once `ms` passed without its answer. */
    const bounded = <T>(call: Promise<T>): Promise<T> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const noAnswer = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          noAnswerListeners.forEach((l) => l(wallet.name));
          reject(new WalletNoAnswerError(wallet.name));
        }, ms);
      });
      return Promise.race([call, noAnswer]).finally(() => clearTimeout(timer));
    };
    const createConnector: Wallet["createConnector"] = (details) => {
      const connectorFn = wallet.createConnector(details);
      return (config) => {
        const connector = connectorFn(config);
        const { connect, getChainId } = connector;
        // Functions, not arrows: wagmi calls them on its own copy of the connector, which the originals use as `this`.
        return {
          ...connector,
          connect: function (this: unknown, ...args: Parameters<typeof connect>) {
            return bounded(connect.apply(this, args));
          } as typeof connect,
          getChainId: function (this: unknown) {
            return bounded(getChainId.apply(this));
          },
        };
      };
    };
    return { ...wallet, createConnector };
  };
}

/**
 * The EVM wallets RainbowKit offers (EIP-6963 wallets are added by RainbowKit itself, under their own names):
 * "Browser Wallet" (window.ethereum) only when the browser has an injected wallet (`injected`, see injected.ts), as
 * without one it cannot answer; WalletConnect-based ones only with a project id; the burner only in devnet mode, where
 * it needs no extension to try the shop. Each connection request that gets no answer ends (answeringWithin).
 */
export function evmWalletList(setup: Pick<WalletSetup, "mode" | "walletConnectProjectId">, injected: boolean): WalletList {
  const wallets = [...(injected ? [injectedWallet] : []), ...(setup.walletConnectProjectId ? [metaMaskWallet, rainbowWallet, walletConnectWallet] : [])].map(
    (w) => answeringWithin(w),
  );
  return [
    ...(setup.mode === "devnet" ? [{ groupName: "Devnet", wallets: [burnerWallet] }] : []),
    ...(wallets.length > 0 ? [{ groupName: "Wallets", wallets }] : []),
  ];
}

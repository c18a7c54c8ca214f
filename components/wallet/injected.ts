import type { WalletSetup } from "@/lib/payments/wallet-setup";

/** The browser side of an injected wallet: `window.ethereum` and the EIP-6963 events, nothing else. */
type InjectedWindow = Pick<Window, "addEventListener" | "removeEventListener" | "dispatchEvent"> & { ethereum?: unknown };

/**
 * Whether the browser has an injected EVM wallet (an extension): `window.ethereum`, or a wallet that announces itself
 * through EIP-6963 when asked. Extensions answer the request at once (the event is dispatched synchronously), so the
 * answer is known when this returns. Without one, "Browser Wallet" would be a choice that can only spin.
 */
export function injectedProviderPresent(win: InjectedWindow = window): boolean {
  if (win.ethereum) return true;
  let announced = false;
  const heard = () => void (announced = true);
  win.addEventListener("eip6963:announceProvider", heard);
  try {
    win.dispatchEvent(new Event("eip6963:requestProvider"));
  } finally {
    win.removeEventListener("eip6963:announceProvider", heard);
  }
  return announced;
}

/**
 * Whether the EVM wallet picker would offer anything: the burner (devnet), WalletConnect's wallets (with a project id)
 * or an injected wallet. When it would not, the page says how to get a wallet instead of opening an empty picker.
 */
export function evmWalletsOffered(setup: Pick<WalletSetup, "mode" | "walletConnectProjectId">, injected: boolean): boolean {
  return setup.mode === "devnet" || Boolean(setup.walletConnectProjectId) || injected;
}

/** How long a wallet has to answer a connection request before the page gives up on it and says so. */
export const WALLET_ANSWER_MS = 30_000;

/** A wallet that did not answer a connection request within WALLET_ANSWER_MS. */
export class WalletNoAnswerError extends Error {
  constructor(readonly walletName: string) {
    super(`${walletName} did not answer within ${WALLET_ANSWER_MS / 1000} seconds.`);
    this.name = "WalletNoAnswerError";
  }
}

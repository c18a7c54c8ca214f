"use client";

import { useState } from "react";
import { BURNER_WALLET_NAME } from "./burner/burner-wallet-info";
import { evmWalletsOffered, injectedProviderPresent } from "./injected";
import { signOut } from "./session";
import { useWalletState, type ShopWallet, type WalletFamily } from "./use-shop-wallet";

export const shortAddress = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);

const FAMILY_BUTTONS: Record<WalletFamily, string> = { eip155: "Connect EVM wallet", solana: "Connect Solana wallet" };

/**
 * Connect an EVM wallet (RainbowKit) or a Solana wallet (wallet adapter); once connected, who and a way out. The
 * family's wallet stack loads when its button is pressed, then its picker opens. `families` narrows the offer to the
 * families that can pay (a merchant's invoice is paid on one network): the first is the main button.
 */
export function ConnectWallet({ wallet, families = ["eip155", "solana"] }: { wallet: ShopWallet | null; families?: readonly WalletFamily[] }) {
  const { setup, families: familyStates, connect, forget, loading } = useWalletState();
  const devnet = setup.mode === "devnet";
  // Pressed "Connect EVM wallet" in a browser without any EVM wallet to offer: how to get one, rather than an empty picker.
  const [noEvmWallet, setNoEvmWallet] = useState(false);
  const problem = familyStates.eip155?.problem;
  if (wallet) {
    return (
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
        <span>
          Connected: <span className="font-semibold">{wallet.name}</span>{" "}
          <code className="rounded bg-slate-100 px-1.5 py-0.5" title={wallet.address}>
            {shortAddress(wallet.address)}
          </code>{" "}
          ({wallet.family === "solana" ? "Solana" : "EVM"})
        </span>
        <button
          type="button"
          onClick={() => {
            forget(wallet.family);
            signOut(wallet.id);
            wallet.disconnect();
          }}
          className="font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          Disconnect
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {families.map((family, i) => (
          <button
            key={family}
            type="button"
            onClick={() => {
              // Pressed "Connect EVM wallet" in a browser without any EVM wallet to offer: how to get one instead.
              const none = family === "eip155" && !evmWalletsOffered(setup, injectedProviderPresent());
              setNoEvmWallet(none);
              if (!none) connect(family);
            }}
            aria-busy={loading === family}
            className={
              i === 0
                ? "h-11 rounded-xl bg-brand-600 px-4 font-semibold text-white shadow-sm hover:bg-brand-700"
                : "h-11 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 shadow-sm hover:bg-slate-50"
            }
          >
            {FAMILY_BUTTONS[family]}
          </button>
        ))}
      </div>
      {(problem || noEvmWallet) && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem ?? (
            <>
              No EVM wallet was found in this browser. Install one (see{" "}
              <a
                href="https://ethereum.org/en/wallets/find-wallet/"
                target="_blank"
                rel="noreferrer"
                className="font-semibold text-brand-700 underline underline-offset-2"
              >
                how to choose a wallet
              </a>
              ) and reload this page{families.includes("solana") ? ", or connect a Solana wallet" : ""}.
            </>
          )}
        </p>
      )}
      {devnet && (
        <p className="text-sm text-slate-600">
          <span className="font-semibold text-slate-800">No wallet extension?</span> This is a devnet: pick{" "}
          <span className="font-medium text-slate-800">{BURNER_WALLET_NAME}</span> in {families.length > 1 ? "either list" : "the list"}. It is a test wallet
          kept in this browser, for test USDC only.
        </p>
      )}
    </div>
  );
}

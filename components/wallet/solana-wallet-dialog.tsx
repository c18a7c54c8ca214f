"use client";

import { WalletReadyState, type WalletName } from "@solana/wallet-adapter-base";
import { useWallet } from "@solana/wallet-adapter-react";
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";

const OpenContext = createContext<() => void>(() => undefined);

/** Opens the Solana wallet picker. */
export function useSolanaWalletDialog(): () => void {
  return useContext(OpenContext);
}

/**
 * The Solana wallet picker: the Wallet Standard wallets this browser has (Phantom, Solflare, Backpack, …), as the
 * wallet adapter detects them. A native <dialog>: focus stays inside, Escape closes it.
 */
export function SolanaWalletDialogProvider({ children }: { children: React.ReactNode }) {
  const { wallets, select, connect, wallet, connected } = useWallet();
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<WalletName | null>(null);
  // The list is drawn only while open: the wallets a browser has are unknown when the page is rendered on the server.
  const [isOpen, setOpen] = useState(false);
  const open = useCallback(() => {
    setError(null);
    setOpen(true);
    ref.current?.showModal();
  }, []);

  // select() only picks the wallet; connecting happens once the adapter is in place.
  useEffect(() => {
    if (!pending || wallet?.adapter.name !== pending || connected) return;
    connect()
      .then(() => ref.current?.close())
      .catch((err: unknown) => setError(err instanceof Error ? err.message : "The wallet did not connect."))
      .finally(() => setPending(null));
  }, [pending, wallet, connected, connect]);

  const installed = wallets.filter((w) => w.readyState === WalletReadyState.Installed || w.readyState === WalletReadyState.Loadable);
  return (
    <OpenContext.Provider value={open}>
      {children}
      <dialog
        ref={ref}
        aria-labelledby="solana-wallets-title"
        onClose={() => setOpen(false)}
        className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <div className="flex flex-col gap-3 p-5">
          <h2 id="solana-wallets-title" className="text-lg font-bold text-slate-900">
            Connect a Solana wallet
          </h2>
          {!isOpen ? null : installed.length === 0 ? (
            <p className="text-sm text-slate-700">No Solana wallet was found in this browser. Install one (Phantom, Solflare, Backpack) and reload the page.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {installed.map((w) => (
                <li key={w.adapter.name}>
                  <button
                    type="button"
                    onClick={() => {
                      setError(null);
                      setPending(w.adapter.name);
                      select(w.adapter.name);
                    }}
                    className="flex w-full items-center gap-3 rounded-xl border border-slate-300 px-3 py-2 text-left font-semibold text-slate-900 hover:bg-slate-50"
                  >
                    {/* Wallet icons are data URLs the wallet provides. */}
                    {/* eslint-disable-next-line @next/next/no-img-element */}
                    <img src={w.adapter.icon} alt="" width={28} height={28} className="size-7 rounded" />
                    {w.adapter.name}
                    {pending === w.adapter.name && <span className="ml-auto text-sm font-normal text-slate-600">Connecting…</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
            {error}
          </p>
          <form method="dialog">
            <button className="h-10 w-full rounded-xl border border-slate-300 bg-white font-semibold text-slate-900 hover:bg-slate-50">Cancel</button>
          </form>
        </div>
      </dialog>
    </OpenContext.Provider>
  );
}

"use client";

import { useAction } from "@/components/checkout/use-action";
import { ConnectWallet } from "./connect-wallet";
import { signInAgainReason, useSession } from "./session";
import { useShopWallet, useWalletRestoring, type ShopWallet } from "./use-shop-wallet";

/**
 * Shows its children once a wallet is connected and signed in (SIWX, a session token shared by the browser's tabs);
 * until then, the way there: connect, then one signature, and why it is asked again when a sign-in ended.
 */
export function SignedIn({ prompt, children }: { prompt: string; children: (token: string, wallet: ShopWallet) => React.ReactNode }) {
  const wallet = useShopWallet();
  const { session, why, signIn } = useSession(wallet);
  const again = wallet ? signInAgainReason(why) : null;
  const { busy, error, run } = useAction<"sign-in">();
  const restoring = useWalletRestoring();
  if (wallet && session) return children(session.token, wallet);
  // A wallet connected on an earlier visit is coming back: no "connect your wallet" before it is known.
  if (!wallet && restoring) {
    return (
      <p role="status" className="rounded-2xl bg-white p-4 text-slate-700 shadow-sm ring-1 ring-slate-200 sm:p-5">
        Looking for your wallet…
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <p className="text-slate-700">{prompt}</p>
      {again && <p className="text-sm font-medium text-slate-800">{again}</p>}
      <ConnectWallet wallet={wallet} />
      {wallet && (
        <button
          type="button"
          disabled={busy !== null}
          onClick={() => run("sign-in", signIn)}
          className="h-11 w-fit rounded-xl bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {busy ? "Waiting for your wallet…" : "Sign in"}
        </button>
      )}
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {error}
      </p>
    </div>
  );
}

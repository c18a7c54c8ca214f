"use client";

import { useCallback, useSyncExternalStore } from "react";
import { signIn as signInAt, type Session } from "@/components/checkout/shop-api";
import type { ShopWallet } from "./use-shop-wallet";

// Session tokens live for the tab (sessionStorage), one per wallet: another tab or a closed browser signs in again.
const PREFIX = "storefront.session.";
const listeners = new Set<() => void>();

function read(walletId: string): Session | null {
  try {
    const raw = window.sessionStorage.getItem(PREFIX + walletId);
    const s = raw ? (JSON.parse(raw) as Session) : null;
    // A minute of slack: a token about to expire would fail mid-checkout.
    return s && s.expiresAt - 60_000 > Date.now() ? s : null;
  } catch {
    return null;
  }
}

const cache = new Map<string, { raw: string | null; session: Session | null }>();
function snapshot(walletId: string): Session | null {
  const raw = window.sessionStorage.getItem(PREFIX + walletId);
  const hit = cache.get(walletId);
  if (hit && hit.raw === raw) return hit.session;
  const session = read(walletId);
  cache.set(walletId, { raw, session });
  return session;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function forgetSession(walletId: string) {
  window.sessionStorage.removeItem(PREFIX + walletId);
  listeners.forEach((l) => l());
}

/** The wallet's session token for this tab, and a way to get one with a SIWX signature. */
export function useSession(wallet: ShopWallet | null) {
  const id = wallet?.id ?? null;
  const session = useSyncExternalStore(
    subscribe,
    () => (id ? snapshot(id) : null),
    () => null,
  );
  const signIn = useCallback(async () => {
    if (!wallet) throw new Error("Connect a wallet first.");
    const s = await signInAt(wallet.siwxSigner, wallet.family);
    window.sessionStorage.setItem(PREFIX + wallet.id, JSON.stringify(s));
    listeners.forEach((l) => l());
    return s;
  }, [wallet]);
  return { session, signIn };
}

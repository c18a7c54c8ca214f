"use client";

import { useCallback, useSyncExternalStore } from "react";
import { signIn as signInAt, type Session } from "@/components/checkout/shop-api";
import type { ShopWallet } from "./use-shop-wallet";

// Session tokens live for the tab (sessionStorage), one per wallet: another tab or a closed browser signs in again.
const PREFIX = "storefront.session.";
const listeners = new Set<() => void>();

const cache = new Map<string, { raw: string | null; session: Session | null }>();

/** The stored session, parsed once per stored value (a stable object for React), or null once it is about to expire. */
function snapshot(walletId: string): Session | null {
  const raw = window.sessionStorage.getItem(PREFIX + walletId);
  let hit = cache.get(walletId);
  if (!hit || hit.raw !== raw) {
    let session: Session | null = null;
    try {
      session = raw ? (JSON.parse(raw) as Session) : null;
    } catch {
      session = null;
    }
    hit = { raw, session };
    cache.set(walletId, hit);
  }
  // A minute of slack: a token about to expire would fail mid-checkout.
  return hit.session && hit.session.expiresAt - 60_000 > Date.now() ? hit.session : null;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Drops every session of this tab: the shop refused a token (401), so the next step asks for a signature again. */
export function forgetSessions() {
  for (const key of Object.keys(window.sessionStorage)) if (key.startsWith(PREFIX)) window.sessionStorage.removeItem(key);
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

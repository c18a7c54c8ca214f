"use client";

import { useCallback, useSyncExternalStore } from "react";
import { signIn as signInAt, type Session } from "@/components/checkout/shop-api";
import type { ShopWallet } from "./use-shop-wallet";

// Session tokens are kept in localStorage, one per wallet, so that every tab of the shop in this browser shares the
// sign-in, as a shop's cookie would. A token is used only with its wallet connected and only until it expires (the
// shop's own limit, a day); an expired one is dropped. Disconnecting the wallet signs it out in every tab (the
// `storage` event tells the other tabs), and so does a token the shop refuses. Why a page asks to sign in again is kept
// beside it (ENDED), so each tab can say it.
const PREFIX = "storefront.session.";
const ENDED = "storefront.session-ended.";
/** A minute of slack: a token about to expire would fail mid-checkout. */
const SLACK_MS = 60_000;

/** Why a wallet's sign-in ended: it expired, its wallet was disconnected (signed out), or the shop refused its token. */
export type SessionEnd = "expired" | "signed-out" | "refused";
const ENDS: readonly SessionEnd[] = ["expired", "signed-out", "refused"];

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

const cache = new Map<string, { raw: string | null; session: Session | null }>();

function parse(raw: string | null): Session | null {
  try {
    const s = raw ? (JSON.parse(raw) as Partial<Session>) : null;
    return s && typeof s.token === "string" && typeof s.expiresAt === "number" ? { token: s.token, expiresAt: s.expiresAt } : null;
  } catch {
    return null;
  }
}

const live = (s: Session | null, now = Date.now()) => s !== null && s.expiresAt - SLACK_MS > now;

/** The stored session, parsed once per stored value (a stable object for React), or null once it is about to expire. */
function snapshot(walletId: string): Session | null {
  const raw = window.localStorage.getItem(PREFIX + walletId);
  let hit = cache.get(walletId);
  if (!hit || hit.raw !== raw) {
    hit = { raw, session: parse(raw) };
    cache.set(walletId, hit);
  }
  return live(hit.session) ? hit.session : null;
}

/** Why the wallet's last sign-in in this browser ended, if it did (and it has not signed in again since). */
function ended(walletId: string): SessionEnd | null {
  const stored = window.localStorage.getItem(PREFIX + walletId);
  if (stored !== null && !live(parse(stored))) return "expired";
  const why = window.localStorage.getItem(ENDED + walletId);
  return ENDS.find((e) => e === why) ?? null;
}

function end(walletId: string, why: SessionEnd) {
  window.localStorage.removeItem(PREFIX + walletId);
  window.localStorage.setItem(ENDED + walletId, why);
}

/** Every stored token that has expired is removed (its wallet's page says the sign-in expired). */
function pruneExpired() {
  for (const key of Object.keys(window.localStorage)) {
    if (key.startsWith(PREFIX) && !live(parse(window.localStorage.getItem(key)))) end(key.slice(PREFIX.length), "expired");
  }
}

// Another tab signed in or out: the `storage` event, fired in every other tab of the origin.
const onStorage = (e: StorageEvent) => {
  if (e.key === null || e.key.startsWith(PREFIX) || e.key.startsWith(ENDED)) notify();
};

function subscribe(listener: () => void) {
  if (listeners.size === 0) {
    window.addEventListener("storage", onStorage);
    pruneExpired();
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

/** Drops every session of this browser, in every tab: the shop refused a token (401), so the next step asks for a signature again. */
export function forgetSessions() {
  for (const key of Object.keys(window.localStorage)) if (key.startsWith(PREFIX)) end(key.slice(PREFIX.length), "refused");
  notify();
}

/** Signs the wallet out in every tab (its wallet is being disconnected). */
export function signOut(walletId: string) {
  if (window.localStorage.getItem(PREFIX + walletId) !== null) end(walletId, "signed-out");
  notify();
}

/**
 * The wallet's session token, shared by the browser's tabs; why the last one ended, if it did; and a way to get one
 * with a SIWX signature.
 */
export function useSession(wallet: ShopWallet | null) {
  const id = wallet?.id ?? null;
  const session = useSyncExternalStore(
    subscribe,
    () => (id ? snapshot(id) : null),
    () => null,
  );
  const why = useSyncExternalStore(
    subscribe,
    () => (id && !session ? ended(id) : null),
    () => null,
  );
  const signIn = useCallback(async () => {
    if (!wallet) throw new Error("Connect a wallet first.");
    const s = await signInAt(wallet.siwxSigner, wallet.family);
    window.localStorage.setItem(PREFIX + wallet.id, JSON.stringify(s));
    window.localStorage.removeItem(ENDED + wallet.id);
    notify();
    return s;
  }, [wallet]);
  return { session, why, signIn };
}

/** What a page says when it asks for a sign-in again, by why the last one ended. */
export function signInAgainReason(why: SessionEnd | null): string | null {
  switch (why) {
    case "expired":
      return "Your sign-in expired (a sign-in lasts a day): sign in again with one signature.";
    case "signed-out":
      return "You signed out, in this tab or another one (disconnecting a wallet signs it out in every tab): sign in again to continue.";
    case "refused":
      return "The shop no longer accepts your last sign-in: sign in again with one signature.";
    default:
      return null;
  }
}

"use client";

import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentType } from "react";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import { ShopApiError } from "@/components/checkout/shop-api";
import { forgetSessions } from "./session";
import { WalletStateContext, type FamilyProps, type FamilyState, type WalletFamily, type WalletState } from "./use-shop-wallet";

export { useWalletSetup } from "./use-shop-wallet";

/** The families this browser chose before: they are loaded again at once, so that their wallets reconnect. */
const CHOSEN_KEY = "storefront.wallet.families";
/** How long the pages wait for a remembered wallet to come back before they ask for one (a wallet that never answers). */
const RESTORE_LIMIT_MS = 8_000;
const FAMILIES: readonly WalletFamily[] = ["eip155", "solana"];

function chosenFamilies(): WalletFamily[] {
  return parseFamilies(window.localStorage.getItem(CHOSEN_KEY) ?? "");
}

function parseFamilies(stored: string): WalletFamily[] {
  try {
    const parsed: unknown = JSON.parse(stored || "[]");
    return Array.isArray(parsed) ? FAMILIES.filter((f) => parsed.includes(f)) : [];
  } catch {
    return [];
  }
}

/** The remembered families as stored (a string: the same value between two reads), for useSyncExternalStore. */
function rememberedFamilies(): string {
  return window.localStorage.getItem(CHOSEN_KEY) ?? "";
}
const noSubscription = () => () => {};

function setChosen(families: WalletFamily[]) {
  window.localStorage.setItem(CHOSEN_KEY, JSON.stringify(families));
}

/** Each family's stack in its own chunk: choosing one never loads the other. */
const loaders: Record<WalletFamily, () => Promise<{ default: ComponentType<FamilyProps> }>> = {
  eip155: () => import("./evm-family"),
  solana: () => import("./solana-family"),
};

/**
 * What the cart, checkout, invoice and account pages (and the dashboard's top-up) share: the deployment's networks,
 * TanStack Query, and the wallets. The wallet stacks themselves (wagmi + RainbowKit for EVM, the Solana wallet
 * adapter) are loaded only when the shopper picks that family, or comes back having picked it: until then the page
 * carries none of their code. The browse pages never load any of this.
 */
export function WalletProviders({ setup, children }: { setup: WalletSetup; children: React.ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // A refused session token (401) is dropped, so the page asks for a new signature.
        queryCache: new QueryCache({ onError: (err) => void (err instanceof ShopApiError && err.status === 401 && forgetSessions()) }),
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  const [loaded, setLoaded] = useState<Partial<Record<WalletFamily, ComponentType<FamilyProps>>>>({});
  const [families, setFamilies] = useState<Partial<Record<WalletFamily, FamilyState>>>({});
  const [loading, setLoading] = useState<WalletFamily | null>(null);
  // A family the shopper asked to connect: its picker opens as soon as its stack can open it.
  const opening = useRef<WalletFamily | null>(null);

  const show = (family: WalletFamily, Family: ComponentType<FamilyProps>) => setLoaded((l) => (l[family] ? l : { ...l, [family]: Family }));

  // The families chosen on an earlier visit load at once: their wallets reconnect. Until each has said whether its
  // wallet is back (or RESTORE_LIMIT_MS passed), the pages do not ask for one: no "connect your wallet" flashes by.
  // What this browser remembered when the page opened, read after hydration (the server's render and the first client
  // one know nothing); read once, so that a family chosen now does not count as one coming back.
  const [atOpen] = useState<{ raw?: string }>(() => ({}));
  const rememberedRaw = useSyncExternalStore(
    noSubscription,
    () => (atOpen.raw ??= rememberedFamilies()),
    () => null,
  );
  const remembered = useMemo(() => (rememberedRaw === null ? null : parseFamilies(rememberedRaw)), [rememberedRaw]);
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    for (const family of chosenFamilies()) void loaders[family]().then((m) => show(family, m.default));
    const timer = setTimeout(() => setWaited(true), RESTORE_LIMIT_MS);
    return () => clearTimeout(timer);
  }, []);
  // Before that nothing is known: waiting, as for a remembered wallet.
  const restoring =
    !waited &&
    (remembered === null ||
      (!Object.values(families).some((f) => f?.wallet) && remembered.some((family) => !families[family] || families[family].settling === true)));

  // One publisher per family, the same for the page's life.
  const [publishers] = useState(
    () =>
      Object.fromEntries(
        FAMILIES.map((family) => [
          family,
          (next: FamilyState | null) => {
            setFamilies((all) => {
              // The same news twice changes nothing (and renders nothing).
              const was = all[family];
              if (next && was?.wallet === next.wallet && was.open === next.open && was.problem === next.problem) return all;
              if (!next && !all[family]) return all;
              const rest = { ...all };
              delete rest[family];
              return next ? { ...rest, [family]: next } : rest;
            });
            if (next?.open && opening.current === family) {
              opening.current = null;
              next.open();
            }
          },
        ]),
      ) as Record<WalletFamily, (state: FamilyState | null) => void>,
  );

  const state: WalletState = {
    setup,
    families,
    loading,
    restoring,
    connect(family) {
      setChosen([...new Set([...chosenFamilies(), family])]);
      const ready = families[family]?.open;
      if (ready) return ready();
      opening.current = family;
      if (loaded[family]) return;
      setLoading(family);
      void loaders[family]()
        .then((m) => show(family, m.default))
        .finally(() => setLoading((l) => (l === family ? null : l)));
    },
    forget(family) {
      setChosen(chosenFamilies().filter((f) => f !== family));
    },
  };

  return (
    <WalletStateContext.Provider value={state}>
      <QueryClientProvider client={queryClient}>
        {children}
        {FAMILIES.map((family) => {
          const Family = loaded[family];
          return Family ? <Family key={family} setup={setup} publish={publishers[family]} /> : null;
        })}
      </QueryClientProvider>
    </WalletStateContext.Provider>
  );
}

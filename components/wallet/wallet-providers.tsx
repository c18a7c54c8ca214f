"use client";

import "@rainbow-me/rainbowkit/styles.css";
import { connectorsForWallets, RainbowKitProvider } from "@rainbow-me/rainbowkit";
import { WalletNotReadyError, type WalletError } from "@solana/wallet-adapter-base";
import { ConnectionProvider, WalletProvider } from "@solana/wallet-adapter-react";
import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState } from "react";
import { defineChain, http, type Chain } from "viem";
import { createConfig, WagmiProvider } from "wagmi";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import { ShopApiError } from "@/components/checkout/shop-api";
import { registerSolanaBurner } from "./burner/solana-burner";
import { forgetSessions } from "./session";
import { SolanaWalletDialogProvider } from "./solana-wallet-dialog";
import { evmWalletList } from "./wallet-list";

const SetupContext = createContext<WalletSetup | null>(null);

/** The deployment's networks, as the server described them. */
export function useWalletSetup(): WalletSetup {
  const setup = useContext(SetupContext);
  if (!setup) throw new Error("useWalletSetup outside <WalletProviders>");
  return setup;
}

export function evmChains(setup: WalletSetup): [Chain, ...Chain[]] {
  const chains = setup.evm.map((n) =>
    defineChain({
      id: n.chainId,
      name: n.name,
      nativeCurrency: n.key === "polygon" ? { name: "POL", symbol: "POL", decimals: 18 } : { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [n.rpcUrl] } },
      ...(n.explorerTx ? { blockExplorers: { default: { name: "Explorer", url: new URL(n.explorerTx).origin } } } : {}),
      testnet: setup.mode !== "mainnet",
    }),
  );
  if (chains.length === 0) throw new Error("No EVM network is configured");
  return chains as unknown as [Chain, ...Chain[]];
}

function makeWagmiConfig(setup: WalletSetup) {
  const chains = evmChains(setup);
  const connectors = connectorsForWallets(evmWalletList(setup), { appName: "x402 Storefront", projectId: setup.walletConnectProjectId ?? "none" });
  return createConfig({
    chains,
    connectors,
    transports: Object.fromEntries(chains.map((c) => [c.id, http(c.rpcUrls.default.http[0])])),
    ssr: true,
  });
}

/**
 * The wallet adapter logs every wallet error to the console by default. Each action that can fail (connect, sign,
 * pay) explains its own failure on the page; only a failed automatic reconnection has nobody to tell.
 */
function quietWalletError(error: WalletError) {
  if (error instanceof WalletNotReadyError || error.name === "WalletConnectionError") console.warn("The Solana wallet did not reconnect:", error.message);
}

/**
 * The wallet stack (wagmi + RainbowKit for EVM, the Solana wallet adapter, TanStack Query), for the cart, checkout,
 * invoice and account pages only: the browse pages never load it.
 */
export function WalletProviders({ setup, children }: { setup: WalletSetup; children: React.ReactNode }) {
  const [wagmiConfig] = useState(() => makeWagmiConfig(setup));
  // After hydration, so that the server's render of the Solana picker matches the first one in the browser.
  useEffect(() => void registerSolanaBurner(setup), [setup]);
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // A refused session token (401) is dropped, so the page asks for a new signature.
        queryCache: new QueryCache({ onError: (err) => void (err instanceof ShopApiError && err.status === 401 && forgetSessions()) }),
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  return (
    <SetupContext.Provider value={setup}>
      <WagmiProvider config={wagmiConfig}>
        <QueryClientProvider client={queryClient}>
          <RainbowKitProvider modalSize="compact">
            <ConnectionProvider endpoint={setup.solana.rpcUrl}>
              <WalletProvider wallets={[]} autoConnect onError={quietWalletError}>
                <SolanaWalletDialogProvider>{children}</SolanaWalletDialogProvider>
              </WalletProvider>
            </ConnectionProvider>
          </RainbowKitProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </SetupContext.Provider>
  );
}

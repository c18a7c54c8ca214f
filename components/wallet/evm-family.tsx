"use client";

// The EVM wallet stack (wagmi, RainbowKit, viem, the x402 EVM scheme): loaded only when the shopper picks an EVM
// wallet, or comes back after having picked one (wallet-providers.tsx).
import "@rainbow-me/rainbowkit/styles.css";
import { connectorsForWallets, RainbowKitProvider, useConnectModal } from "@rainbow-me/rainbowkit";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { useCallback, useEffect, useMemo, useState } from "react";
import { defineChain, http, type Chain } from "viem";
import { createConfig, useAccount, useConfig, WagmiProvider } from "wagmi";
import { disconnect, getWalletClient, switchChain } from "wagmi/actions";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import { injectedProviderPresent, WALLET_ANSWER_MS } from "./injected";
import type { FamilyProps, ShopWallet } from "./use-shop-wallet";
import { evmWalletList, onWalletNoAnswer } from "./wallet-list";

export function evmChains(setup: WalletSetup): [Chain, ...Chain[]] {
  // x402's networks, and those where a wallet pays an invoice by a plain transfer only (Ethereum).
  const chains = [...setup.evm, ...(setup.addressOnlyEvm ?? [])].map((n) =>
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
  const wallets = evmWalletList(setup, injectedProviderPresent());
  // None to offer (the page says so rather than open the picker): RainbowKit refuses an empty list.
  const connectors =
    wallets.length === 0 ? [] : connectorsForWallets(wallets, { appName: "x402 Storefront", projectId: setup.walletConnectProjectId ?? "none" });
  return createConfig({
    chains,
    connectors,
    transports: Object.fromEntries(chains.map((c) => [c.id, http(c.rpcUrls.default.http[0])])),
    ssr: true,
  });
}

/** wagmi and RainbowKit (under the page's TanStack Query client), telling the page of the connected EVM wallet. */
export default function EvmFamily({ setup, publish }: FamilyProps) {
  const [wagmiConfig] = useState(() => makeWagmiConfig(setup));
  return (
    <WagmiProvider config={wagmiConfig}>
      <RainbowKitProvider modalSize="compact">
        <EvmBridge publish={publish} />
      </RainbowKitProvider>
    </WagmiProvider>
  );
}

function EvmBridge({ publish }: Pick<FamilyProps, "publish">) {
  const wagmiConfig = useConfig();
  const evm = useAccount();
  // wagmi tries to reconnect the remembered wallet once mounted (its status goes through reconnecting, or connecting
  // when there is none, even then): until it has tried, "disconnected" says nothing yet.
  const [tried, setTried] = useState(false);
  if (!tried && evm.status !== "disconnected") setTried(true);
  const { openConnectModal } = useConnectModal();
  // A wallet that left the connection request unanswered: the picker is closed and the page says so (ConnectWallet).
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(
    () =>
      onWalletNoAnswer((name) => {
        setProblem(
          `${name} did not answer within ${WALLET_ANSWER_MS / 1000} seconds. If its extension is installed, unlock it and try again; or choose another wallet.`,
        );
        // RainbowKit offers no way to close its picker but Escape, which its dialog listens for on the document.
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      }),
    [],
  );
  const open = useCallback(() => {
    setProblem(null);
    openConnectModal?.();
  }, [openConnectModal]);

  const wallet = useMemo((): ShopWallet | null => {
    if (evm.status !== "connected" || !evm.address) return null;
    const address = evm.address;
    return {
      family: "eip155",
      address,
      id: `eip155:${address}`,
      name: evm.connector?.name ?? "EVM wallet",
      siwxSigner: {
        address,
        signMessage: async ({ message }: { message: string }) => (await getWalletClient(wagmiConfig)).signMessage({ account: address, message }),
      },
      async paymentScheme(network) {
        const chainId = Number(network.split(":")[1]);
        if (evm.chainId !== chainId) await switchChain(wagmiConfig, { chainId });
        const client = await getWalletClient(wagmiConfig, { chainId });
        return new ExactEvmScheme({
          address,
          signTypedData: (m) => client.signTypedData({ account: address, ...(m as Parameters<typeof client.signTypedData>[0]) }),
        });
      },
      async sendTransfer(network, transfer) {
        const chainId = Number(network.split(":")[1]);
        if (evm.chainId !== chainId) await switchChain(wagmiConfig, { chainId });
        const client = await getWalletClient(wagmiConfig, { chainId });
        return client.sendTransaction({ account: address, chain: client.chain, to: transfer.to, value: transfer.value, data: transfer.data });
      },
      // Through wagmi, so its state follows (connector.disconnect() alone leaves the page connected).
      disconnect: () => void disconnect(wagmiConfig, { connector: evm.connector }),
    };
  }, [evm.status, evm.address, evm.chainId, evm.connector, wagmiConfig]);

  // RainbowKit offers its opener only while no wallet is connected (nor reconnecting).
  useEffect(
    () =>
      publish({
        wallet,
        open: openConnectModal ? open : undefined,
        problem: wallet ? null : problem,
        settling: !wallet && (!tried || evm.status === "reconnecting" || evm.status === "connecting"),
      }),
    [publish, wallet, openConnectModal, open, problem, evm.status, tried],
  );
  useEffect(() => () => publish(null), [publish]);
  return null;
}

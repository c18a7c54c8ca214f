import type { Wallet } from "@rainbow-me/rainbowkit";
import {
  createWalletClient,
  getAddress,
  hexToBigInt,
  hexToNumber,
  http,
  isAddressEqual,
  numberToHex,
  SwitchChainError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  type Address,
  type Chain,
  type Hex,
  type TypedDataDefinition,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createConnector } from "wagmi";
import { evmBurnerKey, type KeyStore } from "./burner-keys";
import { BURNER_WALLET_ICON, BURNER_WALLET_NAME } from "./burner-wallet-info";

export type BurnerRequest = { method: string; params?: unknown };

/** An EIP-1193 provider for the burner: what a wallet extension would inject, without one. */
export type BurnerEvmProvider = {
  request(req: BurnerRequest): Promise<unknown>;
  readonly chainId: number;
};

/**
 * The burner's EIP-1193 provider. Accounts and signatures (personal_sign, eth_signTypedData_v4) are answered here with
 * a viem local account, without asking: it is a devnet wallet holding test money. Chain switches stay among the
 * configured chains; every other request (reads) goes to the current chain's RPC. x402 payments are signatures the
 * facilitator settles; a plain transfer (`eth_sendTransaction`: ether or a token's `transfer` to an invoice's own
 * address) is signed here and sent to the chain, paying its gas with the ether the devnet's faucet gives.
 */
export function createBurnerEvmProvider({
  chains,
  store,
  onChainChanged,
}: {
  chains: readonly [Chain, ...Chain[]];
  store: () => KeyStore;
  onChainChanged?: (chainId: number) => void;
}): BurnerEvmProvider {
  let chain = chains[0];
  let account: PrivateKeyAccount | null = null;
  const existing = () => {
    const key = account ? null : evmBurnerKey(store(), false);
    if (key) account = privateKeyToAccount(key);
    return account;
  };
  const signer = (from: unknown) => {
    const a = existing();
    if (!a || typeof from !== "string" || !isAddressEqual(from as Address, a.address)) {
      throw new UnauthorizedProviderError(new Error(`The burner wallet holds no key for ${String(from)}.`));
    }
    return a;
  };

  return {
    get chainId() {
      return chain.id;
    },
    async request({ method, params }) {
      const p = Array.isArray(params) ? (params as unknown[]) : [];
      switch (method) {
        case "eth_chainId":
          return numberToHex(chain.id);
        case "net_version":
          return String(chain.id);
        case "eth_requestAccounts":
          account ??= privateKeyToAccount(evmBurnerKey(store(), true));
          return [account.address];
        case "eth_accounts": {
          const a = existing();
          return a ? [a.address] : [];
        }
        case "personal_sign":
          return signer(p[1]).signMessage({ message: { raw: p[0] as Hex } });
        case "eth_signTypedData_v4": {
          const typed = JSON.parse(p[1] as string) as TypedDataDefinition & { types: Record<string, unknown> };
          // viem derives the domain's type itself.
          const { EIP712Domain: _domain, ...types } = typed.types;
          void _domain;
          return signer(p[0]).signTypedData({ ...typed, types } as TypedDataDefinition);
        }
        case "wallet_switchEthereumChain": {
          const wanted = hexToNumber((p[0] as { chainId: Hex }).chainId);
          const next = chains.find((c) => c.id === wanted);
          if (!next) throw new SwitchChainError(new Error(`Chain ${wanted} is not one of this shop's networks.`));
          if (next.id !== chain.id) {
            chain = next;
            onChainChanged?.(next.id);
          }
          return null;
        }
        case "eth_sendTransaction": {
          const tx = (p[0] ?? {}) as { from?: unknown; to?: Address; value?: Hex; data?: Hex; gas?: Hex };
          const account = signer(tx.from);
          const url = chain.rpcUrls.default.http[0];
          if (!url) throw new Error(`No RPC URL for ${chain.name}`);
          // Nonce, gas and fees are asked of the chain by viem.
          return createWalletClient({ account, chain, transport: http(url, { retryCount: 0 }) }).sendTransaction({
            to: tx.to,
            value: tx.value === undefined ? undefined : hexToBigInt(tx.value),
            data: tx.data,
            gas: tx.gas === undefined ? undefined : hexToBigInt(tx.gas),
          });
        }
        case "eth_signTransaction":
        case "eth_sign":
        case "wallet_addEthereumChain":
        case "wallet_sendCalls":
          throw new UnsupportedProviderMethodError(new Error(`The burner wallet does not support ${method}.`), { method });
        default: {
          const url = chain.rpcUrls.default.http[0];
          if (!url) throw new Error(`No RPC URL for ${chain.name}`);
          return http(url)({ chain, retryCount: 0 }).request({ method, params } as never);
        }
      }
    },
  };
}

const CONNECTED = "burner.connected";

/**
 * The burner as a wagmi connector. Its key is made on the first connect (not when the page loads); it reconnects on
 * later visits until the shopper disconnects it.
 */
export function burnerConnector(store: () => KeyStore = () => window.localStorage) {
  return createConnector<BurnerEvmProvider, Record<string, unknown>, { [CONNECTED]: boolean }>((config) => {
    let provider: BurnerEvmProvider | undefined;
    const getProvider = () =>
      (provider ??= createBurnerEvmProvider({ chains: config.chains, store, onChainChanged: (chainId) => config.emitter.emit("change", { chainId }) }));
    const accounts = async () => ((await getProvider().request({ method: "eth_accounts" })) as Address[]).map((a) => getAddress(a));
    const switchChain = async ({ chainId }: { chainId: number }) => {
      await getProvider().request({ method: "wallet_switchEthereumChain", params: [{ chainId: numberToHex(chainId) }] });
      return config.chains.find((c) => c.id === chainId)!;
    };
    return {
      id: "devnetBurner",
      name: BURNER_WALLET_NAME,
      type: "burner",
      icon: BURNER_WALLET_ICON,
      async connect({ chainId } = {}) {
        const p = getProvider();
        const connected = ((await p.request({ method: "eth_requestAccounts" })) as Address[]).map((a) => getAddress(a));
        if (chainId && chainId !== p.chainId) await switchChain({ chainId });
        await config.storage?.setItem(CONNECTED, true);
        // No capabilities to report (withCapabilities): the plain account list.
        return { accounts: connected as never, chainId: p.chainId };
      },
      async disconnect() {
        await config.storage?.removeItem(CONNECTED);
      },
      getAccounts: accounts,
      async getChainId() {
        return getProvider().chainId;
      },
      async getProvider() {
        return getProvider();
      },
      async isAuthorized() {
        return Boolean(await config.storage?.getItem(CONNECTED)) && (await accounts()).length > 0;
      },
      switchChain,
      onAccountsChanged(list) {
        if (list.length === 0) this.onDisconnect();
        else config.emitter.emit("change", { accounts: list.map((a) => getAddress(a)) });
      },
      onChainChanged(chainId) {
        config.emitter.emit("change", { chainId: Number(chainId) });
      },
      onDisconnect() {
        config.emitter.emit("disconnect");
      },
    };
  });
}

/** The burner in RainbowKit's connect dialog (a custom wallet: https://rainbowkit.com/docs/custom-wallets). */
export const burnerWallet = (): Wallet => ({
  id: "devnetBurner",
  name: BURNER_WALLET_NAME,
  iconUrl: BURNER_WALLET_ICON,
  iconBackground: "#ea580c",
  installed: true,
  createConnector: (walletDetails) => createConnector((config) => ({ ...burnerConnector()(config), ...walletDetails })),
});

import type { Page } from "@playwright/test";
import type { PrivateKeyAccount } from "viem/accounts";

export type EvmTestWallet = {
  account: PrivateKeyAccount;
  /** What the page asked the wallet, in order (method names). */
  calls: string[];
  /** The next signature request is refused as a user would (EIP-1193 code 4001). */
  rejectNextSignature(): void;
};

type RpcError = { code: number; message: string };

/**
 * An injected EIP-1193 wallet announced through EIP-6963, as a browser extension would be. The page holds only a thin
 * provider: every request crosses to the test process, where a viem account signs and reads go to the devnet RPC of
 * the wallet's current chain.
 */
export async function installEvmTestWallet(
  page: Page,
  account: PrivateKeyAccount,
  chains: Record<number, string>,
  startChainId: number,
): Promise<EvmTestWallet> {
  let chainId = startChainId;
  let reject = false;
  // Like an extension: the site sees no account until the user connects it (then it stays authorized).
  let authorized = false;
  const calls: string[] = [];
  const signing = new Set(["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction", "eth_sign"]);

  await page.exposeBinding("__evmTestWallet", async (_source, req: { method: string; params?: unknown[] }): Promise<{ result?: unknown; error?: RpcError }> => {
    calls.push(req.method);
    const params = req.params ?? [];
    if (signing.has(req.method) && reject) {
      reject = false;
      return { error: { code: 4001, message: "User rejected the request." } };
    }
    switch (req.method) {
      case "eth_requestAccounts":
        authorized = true;
        return { result: [account.address] };
      case "eth_accounts":
        return { result: authorized ? [account.address] : [] };
      case "eth_chainId":
        return { result: `0x${chainId.toString(16)}` };
      case "net_version":
        return { result: String(chainId) };
      case "wallet_switchEthereumChain": {
        const wanted = parseInt((params[0] as { chainId: string }).chainId, 16);
        if (!chains[wanted]) return { error: { code: 4902, message: `Unrecognized chain ID ${wanted}` } };
        chainId = wanted;
        return { result: null };
      }
      case "wallet_addEthereumChain":
        return { result: null };
      case "wallet_requestPermissions":
      case "wallet_getPermissions":
        return { result: [{ parentCapability: "eth_accounts" }] };
      case "personal_sign":
        return { result: await account.signMessage({ message: { raw: params[0] as `0x${string}` } }) };
      case "eth_signTypedData_v4": {
        const typed = JSON.parse(params[1] as string) as Parameters<PrivateKeyAccount["signTypedData"]>[0] & { types: Record<string, unknown> };
        const { EIP712Domain: _domain, ...types } = typed.types;
        void _domain;
        return { result: await account.signTypedData({ ...typed, types } as Parameters<PrivateKeyAccount["signTypedData"]>[0]) };
      }
      default: {
        const res = await fetch(chains[chainId]!, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: req.method, params }),
        });
        const body = (await res.json()) as { result?: unknown; error?: RpcError };
        return body;
      }
    }
  });

  await page.addInitScript(() => {
    type Listener = (...args: unknown[]) => void;
    const listeners = new Map<string, Set<Listener>>();
    const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((l) => l(...args));
    const bridge = (window as unknown as { __evmTestWallet: (req: unknown) => Promise<{ result?: unknown; error?: { code: number; message: string } }> })
      .__evmTestWallet;
    const provider = {
      isTestWallet: true,
      async request(req: { method: string; params?: unknown[] }) {
        const answer = await bridge({ method: req.method, params: req.params ?? [] });
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        if (req.method === "wallet_switchEthereumChain") emit("chainChanged", (req.params?.[0] as { chainId: string }).chainId);
        if (req.method === "eth_requestAccounts") emit("accountsChanged", answer.result);
        return answer.result;
      },
      on(event: string, l: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(l);
        return provider;
      },
      removeListener(event: string, l: Listener) {
        listeners.get(event)?.delete(l);
        return provider;
      },
    };
    const icon =
      "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%23334155'/%3E%3C/svg%3E";
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent("eip6963:announceProvider", {
          detail: Object.freeze({
            info: { uuid: "6f1c2d7e-0b7a-4a56-9a3e-5d2b8f3c1a90", name: "Test Wallet", icon, rdns: "dev.storefront.testwallet" },
            provider,
          }),
        }),
      );
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  });

  return { account, calls, rejectNextSignature: () => void (reject = true) };
}

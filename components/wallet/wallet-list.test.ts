import { describe, expect, it, vi } from "vitest";
import type { CreateConnectorFn } from "wagmi";
import { BURNER_WALLET_NAME } from "./burner/burner-wallet-info";
import { evmWalletsOffered, injectedProviderPresent, WalletNoAnswerError } from "./injected";
import { answeringWithin, evmWalletList, onWalletNoAnswer } from "./wallet-list";

const PARAMS = { projectId: "none", appName: "x402 Storefront" };
const names = (list: ReturnType<typeof evmWalletList>) => list.flatMap((g) => g.wallets.map((create) => create(PARAMS).name));

describe("the EVM wallets offered", () => {
  it("include the burner in devnet mode, and Browser Wallet only with an injected wallet", () => {
    expect(names(evmWalletList({ mode: "devnet", walletConnectProjectId: null }, true))).toEqual([BURNER_WALLET_NAME, "Browser Wallet"]);
    expect(names(evmWalletList({ mode: "devnet", walletConnectProjectId: null }, false))).toEqual([BURNER_WALLET_NAME]);
  });

  it("never include the burner in testnet or mainnet mode", () => {
    for (const mode of ["testnet", "mainnet"] as const) {
      for (const walletConnectProjectId of [null, "project"]) {
        const list = names(evmWalletList({ mode, walletConnectProjectId }, true));
        expect(list.length).toBeGreaterThan(0);
        expect(list).not.toContain(BURNER_WALLET_NAME);
      }
    }
  });

  it("offer nothing without an injected wallet, the burner or WalletConnect, and say so", () => {
    expect(evmWalletList({ mode: "testnet", walletConnectProjectId: null }, false)).toEqual([]);
    expect(evmWalletsOffered({ mode: "testnet", walletConnectProjectId: null }, false)).toBe(false);
    expect(names(evmWalletList({ mode: "mainnet", walletConnectProjectId: "project" }, false))).not.toContain("Browser Wallet");
    expect(evmWalletsOffered({ mode: "mainnet", walletConnectProjectId: "project" }, false)).toBe(true);
    expect(evmWalletsOffered({ mode: "devnet", walletConnectProjectId: null }, false)).toBe(true);
    expect(evmWalletsOffered({ mode: "mainnet", walletConnectProjectId: null }, true)).toBe(true);
  });
});

describe("an injected wallet", () => {
  it("is found through window.ethereum or an EIP-6963 announcement, and not otherwise", () => {
    expect(injectedProviderPresent(Object.assign(new EventTarget(), { ethereum: {} }))).toBe(true);
    expect(injectedProviderPresent(new EventTarget())).toBe(false);
    const announcing = new EventTarget();
    announcing.addEventListener("eip6963:requestProvider", () => announcing.dispatchEvent(new Event("eip6963:announceProvider")));
    expect(injectedProviderPresent(announcing)).toBe(true);
  });
});

describe("a connection request", () => {
  type Calls = { connect: () => Promise<unknown>; getChainId: () => Promise<number> };
  /** A wallet whose connector's calls resolve or never answer. */
  const walletWith = (calls: Partial<Calls>) => () =>
    ({
      id: "slow",
      name: "Slow Wallet",
      iconUrl: "",
      iconBackground: "#fff",
      createConnector: () =>
        (() => ({ id: "slow", name: "Slow Wallet", connect: async () => ({}), getChainId: async () => 1, ...calls })) as unknown as CreateConnectorFn,
    }) as unknown as ReturnType<Parameters<typeof answeringWithin>[0]>;
  const connectorOf = (create: ReturnType<typeof answeringWithin>) => (create(PARAMS).createConnector({} as never) as unknown as (c: unknown) => Calls)({});
  const connectOf = (create: ReturnType<typeof answeringWithin>) => connectorOf(create).connect();

  it("that gets no answer ends with WalletNoAnswerError, and is heard", async () => {
    vi.useFakeTimers();
    try {
      const heard: string[] = [];
      const stop = onWalletNoAnswer((name) => heard.push(name));
      const attempt = connectOf(answeringWithin(walletWith({ connect: () => new Promise(() => {}) }), 1000));
      const outcome = expect(attempt).rejects.toBeInstanceOf(WalletNoAnswerError);
      await vi.advanceTimersByTimeAsync(999);
      expect(heard).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await outcome;
      expect(heard).toEqual(["Slow Wallet"]);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("whose wallet never tells its chain (which RainbowKit asks first) ends too", async () => {
    vi.useFakeTimers();
    try {
      const attempt = connectorOf(answeringWithin(walletWith({ getChainId: () => new Promise(() => {}) }), 1000)).getChainId();
      const outcome = expect(attempt).rejects.toBeInstanceOf(WalletNoAnswerError);
      await vi.advanceTimersByTimeAsync(1000);
      await outcome;
    } finally {
      vi.useRealTimers();
    }
  });

  it("that is answered in time keeps its answer", async () => {
    await expect(connectOf(answeringWithin(walletWith({ connect: async () => ({ accounts: ["0x1"] }) }), 1000))).resolves.toEqual({ accounts: ["0x1"] });
  });
});

import { describe, expect, it } from "vitest";
import { BURNER_WALLET_NAME } from "./burner/burner-wallet-info";
import { evmWalletList } from "./wallet-list";

const names = (list: ReturnType<typeof evmWalletList>) =>
  list.flatMap((g) => g.wallets.map((create) => create({ projectId: "none", appName: "x402 Storefront" }).name));

describe("the EVM wallets offered", () => {
  it("include the burner in devnet mode", () => {
    expect(names(evmWalletList({ mode: "devnet", walletConnectProjectId: null }))).toEqual([BURNER_WALLET_NAME, "Browser Wallet"]);
  });

  it("never include the burner in testnet or mainnet mode", () => {
    for (const mode of ["testnet", "mainnet"] as const) {
      for (const walletConnectProjectId of [null, "project"]) {
        const list = names(evmWalletList({ mode, walletConnectProjectId }));
        expect(list.length).toBeGreaterThan(0);
        expect(list).not.toContain(BURNER_WALLET_NAME);
      }
    }
  });
});

import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import type { EvmNetwork } from "@/lib/platform/networks";
import { startAdversarialRpc, type AdversarialRpc } from "@/test/adversarial/rpc-proxy";
import { managedEvmSigner, type SenderSync } from "./evm-signer";

// The settlement's own check of a signature that the payment's verification found valid a moment before reuses that
// answer: one key recovery (and its calls to the node) a payment instead of two.

const CHAIN_ID = 84_530_402;
const token = "0x4020000000000000000000000000000000005dc0" as const;

describe("the EVM signer's signature checks", () => {
  let chain: EvmDevChain;
  let proxy: AdversarialRpc;
  beforeAll(async () => {
    chain = await startEvmChain({ chainId: CHAIN_ID, name: "Base (devnet)", usdcAddress: token, gasWallets: [] });
    proxy = await startAdversarialRpc(chain.rpcUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await chain?.stop();
  });

  const sync: SenderSync = { lock: (_key, work) => work(), nonces: { get: async () => undefined, set: async () => undefined } };
  const typed = (nonce: number) => ({
    domain: { name: "USD Coin", version: "2", chainId: CHAIN_ID, verifyingContract: token },
    types: { Note: [{ name: "nonce", type: "uint256" }] },
    primaryType: "Note" as const,
    message: { nonce: BigInt(nonce) },
  });

  it("takes a signature found valid as valid again without asking the node, and checks anything else anew, an invalid one every time", async () => {
    const network: EvmNetwork = {
      key: "base",
      kind: "evm",
      network: `eip155:${CHAIN_ID}`,
      chainId: CHAIN_ID,
      name: "Base (devnet)",
      rpcUrl: proxy.url,
      payTo: privateKeyToAccount(generatePrivateKey()).address,
      usdc: { address: token, name: "USD Coin", version: "2", decimals: 6 },
    };
    const signer = managedEvmSigner(network, [privateKeyToAccount(generatePrivateKey())], sync, { confirmationTimeoutMs: 1_000 });
    const payer = privateKeyToAccount(generatePrivateKey());
    const signature = await payer.signTypedData(typed(1));
    const check = (nonce: number, sig = signature) => signer.verifyTypedData({ address: payer.address, ...typed(nonce), signature: sig } as never);

    const before = proxy.calls.length;
    expect(await check(1)).toBe(true);
    const asked = proxy.calls.length;
    // The check asks the node (the payer may be a contract wallet).
    expect(asked).toBeGreaterThan(before);
    // The same check again is answered from the first, without the node.
    expect(await check(1)).toBe(true);
    expect(proxy.calls.length).toBe(asked);
    // Another signature is checked by itself: asking the node again, and found invalid over other data.
    expect(await check(2)).toBe(false);
    expect(proxy.calls.length).toBeGreaterThan(asked);
    const again = proxy.calls.length;
    expect(await check(2)).toBe(false);
    expect(proxy.calls.length).toBeGreaterThan(again);
  });
});

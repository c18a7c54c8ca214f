import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevnetProcess } from "@/scripts/devnet-process";
import { DEVNET_EVM_CHAINS } from "./chains";
import { connectDevnet } from "./shared";

let devnet: Awaited<ReturnType<typeof startDevnetProcess>>;
beforeAll(async () => {
  devnet = await startDevnetProcess({ blockTime: 1 });
}, 90_000);
afterAll(() => devnet?.stop());

describe("a devnet shared by several servers (npm run devnet, DEVNET_URL)", () => {
  it("hands every server the same chains and wallets, and mints through one faucet", async () => {
    const [a, b] = await Promise.all([connectDevnet(devnet.url), connectDevnet(devnet.url)]);
    expect(a.networks.map((n) => n.network)).toEqual([...DEVNET_EVM_CHAINS.map((c) => `eip155:${c.chainId}`), expect.stringMatching(/^solana:/)]);
    expect(b.networks).toEqual(a.networks);
    expect(b.keys.evmFacilitator.address).toBe(a.keys.evmFacilitator.address);
    expect(b.keys.solanaPayTo.address).toBe(a.keys.solanaPayTo.address);
    expect(a.networks.every((n) => n.payTo === (n.kind === "evm" ? a.keys.evmPayTo.address : a.keys.solanaPayTo.address))).toBe(true);

    const evm = a.networks.find((n) => n.kind === "evm")!;
    const solana = a.networks.find((n) => n.kind === "solana")!;
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const owner = (await generateKeyPairSigner()).address;
    // Both servers mint at the same moment: one faucet queue, and the mints land in the same block.
    await Promise.all([a.mint(evm.network, wallet, 1_000_000n), b.mint(evm.network, wallet, 2_000_000n), a.mint(solana.network, owner, 5n)]);
    expect(await b.balance(evm.network, wallet)).toBe(3_000_000n);
    expect(await a.balance(solana.network, owner)).toBe(5n);
    expect(await a.balance(solana.network, (await generateKeyPairSigner()).address)).toBe(0n);
  }, 60_000);

  it("says where it failed when the devnet is not there", async () => {
    await expect(connectDevnet("http://127.0.0.1:9/", { waitMs: 1_000 })).rejects.toThrow(/does not answer \(start it with npm run devnet\)/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import { startSolanaChain, type SolanaDevChain } from "@/lib/devnet/solana/start-solana-chain";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { gasBalances, LOW_GAS } from "./health";

const funded = privateKeyToAccount(generatePrivateKey()).address;
const empty = privateKeyToAccount(generatePrivateKey()).address;
let evm: EvmDevChain;
let solana: SolanaDevChain;

beforeAll(async () => {
  [evm, solana] = await Promise.all([
    startEvmChain({ chainId: 84_530_499, name: "gas test", usdcAddress: "0x4020000000000000000000000000000000005dc0", gasWallets: [funded] }),
    startSolanaChain(),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([evm?.stop(), solana?.stop()]);
});

describe("gas balances", () => {
  it("reads every gas wallet on every network and says which run low", async () => {
    const feePayer = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    solana.airdrop(feePayer, LOW_GAS.lamports - 1n);
    const networks = [
      { kind: "evm", network: "eip155:84530499", rpcUrl: evm.rpcUrl },
      { kind: "solana", network: "solana:test", rpcUrl: solana.rpcUrl },
    ] as unknown as PaymentNetwork[];
    const balances = await gasBalances(networks, { evm: [funded, empty], solana: feePayer });
    expect(balances).toEqual([
      { network: "eip155:84530499", wallet: funded, balance: expect.any(String), unit: "wei", low: false },
      { network: "eip155:84530499", wallet: empty, balance: "0", unit: "wei", low: true },
      { network: "solana:test", wallet: feePayer, balance: String(LOW_GAS.lamports - 1n), unit: "lamports", low: true },
    ]);
  });

  it("reports a network that does not answer instead of failing", async () => {
    const networks = [{ kind: "evm", network: "eip155:1", rpcUrl: "http://127.0.0.1:9" }] as unknown as PaymentNetwork[];
    const [b] = await gasBalances(networks, { evm: [funded] });
    expect(b).toMatchObject({ network: "eip155:1", wallet: funded, error: expect.any(String) });
  });
});

import { createPublicClient, createWalletClient, encodeFunctionData, http, parseEther, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS } from "@/lib/devnet/chains";
import { mintUsdc, startEvmChain, usdcBalance, type EvmDevChain } from "@/lib/devnet/evm";
import { MULTICALL3_ABI, MULTICALL3_ADDRESS, DEV_USDC_ABI } from "@/lib/devnet/evm/artifacts";
import { FORWARDER_FACTORY, FORWARDER_FACTORY_ABI, factoryDeployCall, flushCall, forwarderAddress, invoiceSalt, readHoldings } from "./forwarders";

// The forwarders on a real EVM chain (anvil): an invoice's address is known before anything is deployed, takes ether
// and tokens however they are sent, and whatever it holds can only go to the payTo its address was made for.

const base = DEVNET_EVM_CHAINS[0];
const gas = privateKeyToAccount(generatePrivateKey());
const payer = privateKeyToAccount(generatePrivateKey());
const payTo = privateKeyToAccount(generatePrivateKey()).address;
let chain: EvmDevChain;

beforeAll(async () => {
  chain = await startEvmChain({ chainId: base.chainId, name: base.name, usdcAddress: DEVNET_USDC_ADDRESS, gasWallets: [gas.address, payer.address] });
  await mintUsdc(chain.rpcUrl, DEVNET_USDC_ADDRESS, payer.address, 100_000_000n);
}, 30_000);
afterAll(async () => {
  await chain?.stop();
});

const client = () => createPublicClient({ transport: http(chain.rpcUrl) });
const wallet = (account: typeof gas) => createWalletClient({ account, transport: http(chain.rpcUrl) });
async function sent(hash: `0x${string}`) {
  const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe("success");
  return receipt;
}
const send = async (from: typeof gas, to: Address, data: `0x${string}`, value = 0n) =>
  sent(await wallet(from).sendTransaction({ to, data, value, chain: null }));

describe("an invoice's forwarder", () => {
  it("is an address of its own per invoice and per payTo, the same the factory computes", async () => {
    const a = forwarderAddress(payTo, invoiceSalt("inv_a"));
    expect(forwarderAddress(payTo, invoiceSalt("inv_b"))).not.toBe(a);
    expect(forwarderAddress(payer.address, invoiceSalt("inv_a"))).not.toBe(a);
    await send(gas, factoryDeployCall().to, factoryDeployCall().data);
    expect(await client().getCode({ address: FORWARDER_FACTORY })).toMatch(/^0x[0-9a-f]{100,}/);
    const computed = await client().readContract({
      address: FORWARDER_FACTORY,
      abi: FORWARDER_FACTORY_ABI,
      functionName: "forwarderAddress",
      args: [payTo, invoiceSalt("inv_a")],
    });
    expect(computed).toBe(a);
  });

  it("takes ether sent plainly and through a contract's internal call, and USDC; a flush moves all of it to payTo, again after more arrives", async () => {
    const salt = invoiceSalt("inv_flush");
    const address = forwarderAddress(payTo, salt);
    // Read before the factory exists at that block: the read brings the factory's code with it.
    const before = await client().getBlockNumber();
    await send(payer, address, "0x", parseEther("0.5"));
    // Ether through Multicall3's call with value: an internal transfer, in no transaction's `to` or `value`.
    const internal = encodeFunctionData({
      abi: MULTICALL3_ABI,
      functionName: "aggregate3Value",
      args: [[{ target: address, allowFailure: false, value: parseEther("0.25"), callData: "0x" }]],
    });
    await send(payer, MULTICALL3_ADDRESS, internal, parseEther("0.25"));
    await send(payer, DEVNET_USDC_ADDRESS, encodeFunctionData({ abi: DEV_USDC_ABI, functionName: "transfer", args: [address, 10_000_000n] }));
    const head = await client().getBlockNumber();

    expect(await readHoldings(client(), [address], "native", before)).toEqual([{ held: 0n, flushed: 0n }]);
    expect(await readHoldings(client(), [address], "native", head)).toEqual([{ held: parseEther("0.75"), flushed: 0n }]);
    expect(await readHoldings(client(), [address], DEVNET_USDC_ADDRESS, head)).toEqual([{ held: 10_000_000n, flushed: 0n }]);

    // Someone flushing "to" another payTo reaches another forwarder: nothing here moves.
    const stranger = flushCall(payer.address, salt, ["native", DEVNET_USDC_ADDRESS]);
    await send(payer, stranger.to, stranger.data);
    expect(await client().getBalance({ address })).toBe(parseEther("0.75"));

    const flush = flushCall(payTo, salt, ["native", DEVNET_USDC_ADDRESS]);
    await send(gas, flush.to, flush.data);
    expect(await client().getBalance({ address: payTo })).toBe(parseEther("0.75"));
    expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, payTo)).toBe(10_000_000n);
    const flushedAt = await client().getBlockNumber();
    expect(await readHoldings(client(), [address], "native", flushedAt)).toEqual([{ held: 0n, flushed: parseEther("0.75") }]);

    // Deployed now: ether still arrives, and a second flush adds to what was flushed.
    await send(payer, address, "0x", parseEther("0.1"));
    await send(
      payer,
      MULTICALL3_ADDRESS,
      encodeFunctionData({
        abi: MULTICALL3_ABI,
        functionName: "aggregate3Value",
        args: [[{ target: address, allowFailure: false, value: 1n, callData: "0x" }]],
      }),
      1n,
    );
    await send(gas, flush.to, flush.data);
    const end = await client().getBlockNumber();
    expect(await readHoldings(client(), [address], "native", end)).toEqual([{ held: 0n, flushed: parseEther("0.85") + 1n }]);
    expect(await client().getBalance({ address: payTo })).toBe(parseEther("0.85") + 1n);
    // Ether and USDC read by separate calls stay apart.
    expect(await readHoldings(client(), [address], DEVNET_USDC_ADDRESS, end)).toEqual([{ held: 0n, flushed: 10_000_000n }]);
  });

  it("reads many addresses in calls of 500", async () => {
    const addresses = Array.from({ length: 1_201 }, (_, i) => forwarderAddress(payTo, invoiceSalt(`bulk_${i}`)));
    const target = addresses[1_100]!;
    await send(payer, target, "0x", 7n);
    const head = await client().getBlockNumber();
    const holdings = await readHoldings(client(), addresses, "native", head);
    expect(holdings).toHaveLength(1_201);
    expect(holdings[1_100]).toEqual({ held: 7n, flushed: 0n });
    expect(holdings.filter((h) => h.held > 0n)).toHaveLength(1);
  });
});

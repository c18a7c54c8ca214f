import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { x402Client } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme as ExactEvmClientScheme } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  domainSeparator,
  encodeFunctionData,
  getAddress,
  http,
  parseSignature,
  publicActions,
  zeroHash,
  type Hex,
  type PrivateKeyAccount,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DEV_USDC_ABI, MULTICALL3_ABI, MULTICALL3_ADDRESS, mintUsdc, startEvmChain, usdcBalance, type EvmDevChain } from ".";

const CHAIN_ID = 84_530_402;
const USDC = "0x4020000000000000000000000000000000005dc0" as const;

const authorizationTypes = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

function viemChain(c: EvmDevChain) {
  return defineChain({
    id: c.chainId,
    name: c.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [c.rpcUrl] } },
  });
}

function randomNonce(): Hex {
  return `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("local EVM chain (anvil + DevUSDC + Multicall3)", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "evm-chain-test-"));
  const gas = privateKeyToAccount(generatePrivateKey());
  let chain: EvmDevChain;
  let publicClient: ReturnType<typeof createPublicClient>;
  let gasWallet: ReturnType<typeof createWalletClient>;

  beforeAll(async () => {
    const started = Date.now();
    chain = await startEvmChain({ chainId: CHAIN_ID, name: "Base (devnet)", usdcAddress: USDC, gasWallets: [gas.address] });
    console.log(`anvil ready with DevUSDC and Multicall3 in ${Date.now() - started} ms`);
    publicClient = createPublicClient({ chain: viemChain(chain), transport: http(chain.rpcUrl), pollingInterval: 100 });
    gasWallet = createWalletClient({ account: gas, chain: viemChain(chain), transport: http(chain.rpcUrl), pollingInterval: 100 });
  });

  afterAll(async () => {
    await chain?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Signs a TransferWithAuthorization for DevUSDC on this chain. */
  async function authorize(from: PrivateKeyAccount, to: `0x${string}`, value: bigint, nonce = randomNonce()) {
    const validAfter = 0n;
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 600);
    const signature = await from.signTypedData({
      domain: { name: "USD Coin", version: "2", chainId: CHAIN_ID, verifyingContract: USDC },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: { from: from.address, to, value, validAfter, validBefore, nonce },
    });
    return { args: [from.address, to, value, validAfter, validBefore, nonce] as const, signature };
  }

  it("reports its chain id and serves DevUSDC's metadata", async () => {
    expect(await publicClient.getChainId()).toBe(CHAIN_ID);
    expect(chain.usdc).toEqual({ address: USDC, name: "USD Coin", version: "2", decimals: 6 });
    const read = (functionName: string) => publicClient.readContract({ address: USDC, abi: DEV_USDC_ABI, functionName });
    expect(await read("name")).toBe("USD Coin");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("version")).toBe("2");
    expect(await read("decimals")).toBe(6);
    const domain = { name: "USD Coin", version: "2", chainId: CHAIN_ID, verifyingContract: USDC } as const;
    expect(await read("DOMAIN_SEPARATOR")).toBe(domainSeparator({ domain }));
    expect(await read("eip712Domain")).toEqual(["0x0f", "USD Coin", "2", BigInt(CHAIN_ID), getAddress(USDC), zeroHash, []]);
    expect(await publicClient.getBalance({ address: gas.address })).toBe(1000n * 10n ** 18n);
  });

  it("mints and reports balances", async () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await mintUsdc(chain.rpcUrl, USDC, owner, 5_000_000n);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    await Promise.all([mintUsdc(chain.rpcUrl, USDC, owner, 1n), mintUsdc(chain.rpcUrl, USDC, owner, 2n)]);
    expect(await usdcBalance(chain.rpcUrl, USDC, owner)).toBe(5_000_003n);
  });

  it("moves exactly the value with transferWithAuthorization and refuses a reused nonce", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await mintUsdc(chain.rpcUrl, USDC, payer.address, 10_000n);
    const { args, signature } = await authorize(payer, payee, 2_500n);

    const hash = await gasWallet.writeContract({
      address: USDC,
      abi: DEV_USDC_ABI,
      functionName: "transferWithAuthorization",
      args: [...args, signature],
      chain: viemChain(chain),
      account: gas,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(await usdcBalance(chain.rpcUrl, USDC, payee)).toBe(2_500n);
    expect(await usdcBalance(chain.rpcUrl, USDC, payer.address)).toBe(7_500n);
    const nonce = args[5];
    expect(await publicClient.readContract({ address: USDC, abi: DEV_USDC_ABI, functionName: "authorizationState", args: [payer.address, nonce] })).toBe(true);

    // The same authorization again, through the v,r,s overload this time.
    const { v, r, s } = parseSignature(signature);
    await expect(
      publicClient.simulateContract({
        address: USDC,
        abi: DEV_USDC_ABI,
        functionName: "transferWithAuthorization",
        args: [...args, Number(v), r, s],
        account: gas,
      }),
    ).rejects.toThrow("FiatTokenV2: authorization is used or canceled");
  });

  it("refuses a bad signature and an unfunded payer", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    await mintUsdc(chain.rpcUrl, USDC, payer.address, 1_000n);
    const signedByOther = await authorize(other, gas.address, 100n);
    const forged = [payer.address, ...signedByOther.args.slice(1)] as unknown as typeof signedByOther.args;
    const call = (args: readonly unknown[]) =>
      publicClient.simulateContract({ address: USDC, abi: DEV_USDC_ABI, functionName: "transferWithAuthorization", args, account: gas });
    await expect(call([...forged, signedByOther.signature])).rejects.toThrow("FiatTokenV2: invalid signature");
    const tooMuch = await authorize(payer, gas.address, 1_001n);
    await expect(call([...tooMuch.args, tooMuch.signature])).rejects.toThrow("ERC20: transfer amount exceeds balance");
    // receiveWithAuthorization must be called by the payee.
    const fine = await authorize(payer, other.address, 10n);
    await expect(
      publicClient.simulateContract({
        address: USDC,
        abi: DEV_USDC_ABI,
        functionName: "receiveWithAuthorization",
        args: [...fine.args, fine.signature],
        account: gas,
      }),
    ).rejects.toThrow("FiatTokenV2: caller must be the payee");
  });

  it("serves Multicall3 at its canonical address", async () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    await mintUsdc(chain.rpcUrl, USDC, owner, 42n);
    const call = (functionName: string, args: unknown[] = []) => ({
      target: USDC,
      allowFailure: true,
      callData: encodeFunctionData({ abi: DEV_USDC_ABI, functionName, args }),
    });
    const results = (await publicClient.readContract({
      address: MULTICALL3_ADDRESS,
      abi: MULTICALL3_ABI,
      functionName: "aggregate3",
      args: [[call("balanceOf", [owner]), call("version"), call("transfer", [owner, 1n])]],
    })) as { success: boolean; returnData: Hex }[];
    expect(results.map((r) => r.success)).toEqual([true, true, false]);
    expect(BigInt(results[0]?.returnData ?? "0x")).toBe(42n);
    // viem's own multicall goes through aggregate3 at the chain's multicall3 address.
    const viaViem = await createPublicClient({
      chain: { ...viemChain(chain), contracts: { multicall3: { address: MULTICALL3_ADDRESS } } },
      transport: http(chain.rpcUrl),
    }).multicall({
      contracts: [
        { address: USDC, abi: DEV_USDC_ABI, functionName: "balanceOf", args: [owner] },
        { address: USDC, abi: DEV_USDC_ABI, functionName: "name" },
      ],
    });
    expect(viaViem.map((r) => r.result)).toEqual([42n, "USD Coin"]);
  });

  it("settles an x402 exact payment with the official facilitator, once", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    await mintUsdc(chain.rpcUrl, USDC, payer.address, 1_000_000n);
    const network = `eip155:${CHAIN_ID}` as const;

    // The facilitator: a viem wallet client with public actions, bound to this chain.
    const facilitatorClient = createWalletClient({ account: gas, chain: viemChain(chain), transport: http(chain.rpcUrl), pollingInterval: 100 }).extend(
      publicActions,
    );
    const signer = toFacilitatorEvmSigner(
      { ...(facilitatorClient as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]), address: gas.address },
      { confirmationTimeoutMs: 20_000 },
    );
    const facilitator = new x402Facilitator().register(network, new ExactEvmFacilitatorScheme(signer));

    // The client: the official scheme with a plain viem account. DevUSDC is not one of x402's default assets,
    // so the client's spend controls must allow it explicitly.
    const client = new x402Client()
      .register("eip155:*", new ExactEvmClientScheme(payer))
      .setSpendControls({ allowedAssets: [{ network, asset: USDC, maxAmountPerPayment: "1000000" }] });
    const requirements: PaymentRequirements = {
      scheme: "exact",
      network,
      amount: "2000",
      asset: USDC,
      payTo,
      maxTimeoutSeconds: 60,
      extra: { name: "USD Coin", version: "2" },
    };
    const payload = await client.createPaymentPayload({
      x402Version: 2,
      resource: { url: "http://localhost/test", description: "test", mimeType: "application/json" },
      accepts: [requirements],
    });

    const verified = await facilitator.verify(payload, requirements);
    expect(verified).toMatchObject({ isValid: true, payer: payer.address });

    const settled = await facilitator.settle(payload, requirements);
    expect(settled).toMatchObject({ success: true, network, payer: payer.address });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await usdcBalance(chain.rpcUrl, USDC, payTo)).toBe(2000n);
    expect(await usdcBalance(chain.rpcUrl, USDC, payer.address)).toBe(998_000n);

    // The same payload again: the nonce is used (diagnosed through Multicall3).
    expect(await facilitator.verify(payload, requirements)).toMatchObject({ isValid: false, invalidReason: expect.stringMatching(/nonce_already_used/) });
    const again = await facilitator.settle(payload, requirements);
    expect(again).toMatchObject({ success: false, errorReason: expect.stringMatching(/nonce_already_used/) });
    expect(await usdcBalance(chain.rpcUrl, USDC, payTo)).toBe(2000n);

    // A payer without enough USDC gets a precise reason, too.
    const poor = privateKeyToAccount(generatePrivateKey());
    const poorPayload = await new x402Client()
      .register("eip155:*", new ExactEvmClientScheme(poor))
      .setSpendControls(false)
      .createPaymentPayload({ x402Version: 2, resource: { url: "http://localhost/test" }, accepts: [requirements] });
    expect(await facilitator.verify(poorPayload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: expect.stringMatching(/insufficient_balance/),
    });
  });

  it("keeps state across a restart with the same state file, and leaves no process behind", async () => {
    const stateFile = path.join(tmp, "state", "base.json");
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const first = await startEvmChain({ chainId: CHAIN_ID + 1, name: "persisted", usdcAddress: USDC, stateFile });
    try {
      await mintUsdc(first.rpcUrl, USDC, owner, 123_456n);
    } finally {
      await first.stop();
    }
    expect(isRunning(first.pid)).toBe(false);
    expect(fs.existsSync(stateFile)).toBe(true);

    const second = await startEvmChain({ chainId: CHAIN_ID + 1, name: "persisted", usdcAddress: USDC, stateFile });
    try {
      expect(await usdcBalance(second.rpcUrl, USDC, owner)).toBe(123_456n);
      // The block clock still follows the wall clock after loading the state.
      const block = await createPublicClient({ transport: http(second.rpcUrl) }).getBlock();
      expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(5);
    } finally {
      await second.stop();
      await second.stop(); // idempotent
    }
    expect(isRunning(second.pid)).toBe(false);
  });

  it("rejects a damaged state file with a clear message", async () => {
    const stateFile = path.join(tmp, "damaged.json");
    fs.writeFileSync(stateFile, "{ not json");
    await expect(startEvmChain({ chainId: CHAIN_ID + 2, name: "damaged", usdcAddress: USDC, stateFile })).rejects.toThrow(
      /anvil exited during start-up.*damaged/s,
    );
  });
});

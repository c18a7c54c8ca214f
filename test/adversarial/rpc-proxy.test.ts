import { createPublicClient, http, TransactionNotFoundError, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import { anvilRpc } from "@/lib/devnet/evm/rpc";
import { startAdversarialRpc, type AdversarialRpc } from "./rpc-proxy";

const CHAIN_ID = 84_530_402;
const sender = privateKeyToAccount(generatePrivateKey());

describe("adversarial JSON-RPC proxy", () => {
  let chain: EvmDevChain;
  let proxy: AdversarialRpc;

  beforeAll(async () => {
    chain = await startEvmChain({
      chainId: CHAIN_ID,
      name: "Base (devnet)",
      usdcAddress: "0x4020000000000000000000000000000000005dc0",
      gasWallets: [sender.address],
    });
    proxy = await startAdversarialRpc(chain.rpcUrl);
  });
  afterEach(() => {
    proxy.set({});
    proxy.calls.length = 0;
  });
  afterAll(async () => {
    await proxy?.close();
    await chain?.stop();
  });

  /** One raw JSON-RPC request (a call or a batch) to `url`: its HTTP status and parsed body. */
  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? (JSON.parse(text) as unknown) : text };
  };
  const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: "2.0", id, method, params });
  const result = async <T>(url: string, method: string, params: unknown[] = []) => ((await post(url, call(method, params))).body as { result: T }).result;
  /** A transfer of 1 wei to a new address, mined at once (anvil mines a block per transaction). */
  const sendOne = async (): Promise<Hex> => {
    const nonce = await anvilRpc<string>(chain.rpcUrl, "eth_getTransactionCount", [sender.address, "pending"]);
    const raw = await sender.signTransaction({
      chainId: CHAIN_ID,
      type: "eip1559",
      to: privateKeyToAccount(generatePrivateKey()).address,
      value: 1n,
      gas: 21_000n,
      nonce: Number(nonce),
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    });
    return anvilRpc<Hex>(chain.rpcUrl, "eth_sendRawTransaction", [raw]);
  };

  it("passes single calls and batches through, and records the methods called", async () => {
    const head = await anvilRpc<string>(chain.rpcUrl, "eth_blockNumber");
    expect(await result(proxy.url, "eth_blockNumber")).toBe(head);
    const batch = await post(proxy.url, [call("eth_chainId", [], 1), call("eth_blockNumber", [], 2)]);
    expect(batch).toEqual({
      status: 200,
      body: [
        { jsonrpc: "2.0", id: 1, result: `0x${CHAIN_ID.toString(16)}` },
        { jsonrpc: "2.0", id: 2, result: head },
      ],
    });
    expect(proxy.calls).toEqual(["eth_blockNumber", "eth_chainId", "eth_blockNumber"]);
  });

  it("lags receipts and look-ups of transactions mined in the last blocks", async () => {
    const hash = await sendOne();
    proxy.set({ lag: { blocks: 3 } });
    expect(await result(proxy.url, "eth_getTransactionReceipt", [hash])).toBeNull();
    expect(await result(proxy.url, "eth_getTransactionByHash", [hash])).toBeNull();
    // Through viem: the look-up of a lagged transaction is "not found", exactly as for one the chain never saw.
    const client = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
    await expect(client.getTransaction({ hash })).rejects.toBeInstanceOf(TransactionNotFoundError);
    proxy.set({ lag: { blocks: 3, lookups: "unmined" } });
    expect(await result(proxy.url, "eth_getTransactionByHash", [hash])).toMatchObject({ hash, blockNumber: null, blockHash: null });
    // Mined two blocks deeper, it is still within the lag; three deeper, it is served.
    await anvilRpc(chain.rpcUrl, "anvil_mine", ["0x2"]);
    expect(await result(proxy.url, "eth_getTransactionReceipt", [hash])).toBeNull();
    await anvilRpc(chain.rpcUrl, "evm_mine");
    expect(await result(proxy.url, "eth_getTransactionReceipt", [hash])).toMatchObject({ transactionHash: hash, status: "0x1" });
    expect(await result(proxy.url, "eth_getTransactionByHash", [hash])).toMatchObject({ hash, blockNumber: expect.stringMatching(/^0x/) });
  });

  it("answers 429 to every request, to some methods, or to every k-th", async () => {
    proxy.set({ tooMany: {} });
    expect((await post(proxy.url, call("eth_chainId"))).status).toBe(429);
    proxy.set({ tooMany: { methods: ["eth_getTransactionReceipt"] } });
    expect((await post(proxy.url, call("eth_chainId"))).status).toBe(200);
    expect((await post(proxy.url, call("eth_getTransactionReceipt", [`0x${"00".repeat(32)}`]))).status).toBe(429);
    // A batch holding such a call is refused whole, as providers do.
    expect((await post(proxy.url, [call("eth_chainId"), call("eth_getTransactionReceipt", [`0x${"00".repeat(32)}`], 2)])).status).toBe(429);
    proxy.set({ tooMany: { every: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(proxy.url, call("eth_chainId"))).status);
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
  });

  it("holds requests without answering, for a while or until it is closed", async () => {
    proxy.set({ hang: { methods: ["eth_getTransactionByHash"], ms: 300 } });
    const started = Date.now();
    await expect(post(proxy.url, call("eth_getTransactionByHash", [`0x${"00".repeat(32)}`]))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await post(proxy.url, call("eth_chainId"))).status).toBe(200);

    // Held for good: only closing the proxy ends it, and closing does not wait for it.
    const own = await startAdversarialRpc(chain.rpcUrl, { hang: {} });
    const held = post(own.url, call("eth_chainId"));
    const outcome = held.then(
      () => "answered",
      () => "dropped",
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(own.calls).toEqual(["eth_chainId"]);
    await own.close();
    expect(await outcome).toBe("dropped");
  });

  it("serves an older block: the head and reads at latest are those of a node behind", async () => {
    await sendOne();
    await anvilRpc(chain.rpcUrl, "anvil_mine", ["0x3"]);
    const head = BigInt(await anvilRpc<string>(chain.rpcUrl, "eth_blockNumber"));
    const count = (tag: string) => anvilRpc<string>(chain.rpcUrl, "eth_getTransactionCount", [sender.address, tag]);
    // The sender's count four blocks back, before its last transfer.
    const before = await count(`0x${(head - 4n).toString(16)}`);
    expect(before).not.toBe(await count("latest"));

    proxy.set({ behind: { blocks: 4 } });
    expect(BigInt(await result<string>(proxy.url, "eth_blockNumber"))).toBe(head - 4n);
    expect(await result(proxy.url, "eth_getTransactionCount", [sender.address, "latest"])).toBe(before);
    expect(await result(proxy.url, "eth_getBlockByNumber", ["latest", false])).toMatchObject({ number: `0x${(head - 4n).toString(16)}` });
    proxy.set({});
    expect(BigInt(await result<string>(proxy.url, "eth_blockNumber"))).toBe(head);
  });
});

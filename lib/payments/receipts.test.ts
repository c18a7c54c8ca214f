import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createPublicClient,
  http,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  type Hex,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import { DROP_NONCE_DEPTH, receiptWatcher, TransactionDroppedError } from "./receipts";

const CHAIN_ID = 84_530_402;
const sender = privateKeyToAccount(generatePrivateKey());

describe("receiptWatcher", () => {
  let chain: EvmDevChain;
  let client: PublicClient;
  /** The JSON-RPC methods the watcher's client asked, batches counted as their calls. */
  const asked: string[] = [];

  beforeAll(async () => {
    chain = await startEvmChain({
      chainId: CHAIN_ID,
      name: "Base (devnet)",
      usdcAddress: "0x4020000000000000000000000000000000005dc0",
      gasWallets: [sender.address],
    });
    client = createPublicClient({
      transport: http(chain.rpcUrl, {
        batch: true,
        onFetchRequest: async (req) => {
          const body = (await req.clone().json()) as { method: string } | { method: string }[];
          for (const c of Array.isArray(body) ? body : [body]) asked.push(c.method);
        },
      }),
    });
  });
  afterAll(async () => {
    await chain?.stop();
  });

  const rpc = (method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never });
  const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n };
  /** A transfer of `value` wei to a new address, signed with `nonce` and sent. */
  const send = async (nonce: number, value = 1n, fee = fees) =>
    client.sendRawTransaction({
      serializedTransaction: await sender.signTransaction({
        chainId: CHAIN_ID,
        type: "eip1559",
        to: privateKeyToAccount(generatePrivateKey()).address,
        value,
        gas: 21_000n,
        nonce,
        ...fee,
      }),
    });
  /** Runs `work` with blocks mined only when it asks (evm_mine), then mines one per transaction again. */
  const withoutAutomine = async (work: () => Promise<void>) => {
    await rpc("evm_setAutomine", [false]);
    try {
      await work();
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  };
  const nextNonce = () => client.getTransactionCount({ address: sender.address, blockTag: "pending" });

  it("waits for many transactions with one receipt call each per block, and no look-up of the transactions", async () => {
    const watcher = receiptWatcher(client, { pollingIntervalMs: 50 });
    await withoutAutomine(async () => {
      const first = await nextNonce();
      const hashes: Hex[] = [];
      for (let i = 0; i < 20; i++) hashes.push(await send(first + i));
      asked.length = 0;
      const waits = hashes.map((hash) =>
        watcher.wait({ hashes: () => [hash], sender: { address: sender.address, nonce: first + hashes.indexOf(hash) } }, 10_000),
      );
      // Until a block holds them, the watcher asks the block number (and, once, each receipt).
      await new Promise((r) => setTimeout(r, 300));
      expect(asked.filter((m) => m === "eth_getTransactionReceipt").length).toBe(20);
      await rpc("evm_mine");
      const found = await Promise.all(waits);
      expect(found.map((f) => f.hash)).toEqual(hashes);
      expect(found.every((f) => f.receipt.status === "success")).toBe(true);
      expect(asked.filter((m) => m === "eth_getTransactionReceipt").length).toBe(40);
      expect(asked).not.toContain("eth_getTransactionByHash");
    });
  });

  it("takes a replacement that was mined for the transaction it replaced", async () => {
    const watcher = receiptWatcher(client, { pollingIntervalMs: 50 });
    await withoutAutomine(async () => {
      const nonce = await nextNonce();
      const versions = [await send(nonce, 5n)];
      const waiting = watcher.wait({ hashes: () => versions, sender: { address: sender.address, nonce }, sentAfter: watcher.head() }, 10_000);
      versions.push(await send(nonce, 5n, { maxFeePerGas: 2n * 10n ** 10n, maxPriorityFeePerGas: 2n * 10n ** 9n }));
      await rpc("evm_mine");
      const { hash, receipt } = await waiting;
      expect(hash).toBe(versions[1]);
      expect(receipt.transactionHash).toBe(versions[1]);
    });
  });

  it("reports a transaction whose nonce another transaction used as dropped, once the block that shows it is a few blocks deep", async () => {
    const watcher = receiptWatcher(client, { pollingIntervalMs: 50 });
    await withoutAutomine(async () => {
      const nonce = await nextNonce();
      const lost = await send(nonce);
      const waiting = watcher.wait({ hashes: () => [lost], sender: { address: sender.address, nonce } }, 10_000);
      let settled: unknown;
      const outcome = waiting.then(
        () => (settled = "mined"),
        (err: unknown) => (settled = err),
      );
      await rpc("anvil_dropAllTransactions");
      await send(nonce, 7n);
      // Not at the block that mined the other (a node behind another could show that before the transaction itself).
      const blocks = Number(DROP_NONCE_DEPTH) + 1;
      for (let i = 0; i < blocks; i++) {
        await rpc("evm_mine");
        await new Promise((r) => setTimeout(r, 200));
        if (i < Number(DROP_NONCE_DEPTH)) expect(settled).toBeUndefined();
      }
      for (let i = 0; i < 3 && settled === undefined; i++) {
        await rpc("evm_mine");
        await new Promise((r) => setTimeout(r, 200));
      }
      const err = await outcome;
      expect(err).toBeInstanceOf(TransactionDroppedError);
      expect((err as Error).message).toContain(`nonce ${nonce} was used by another transaction`);
    });
  });

  it("does not take a mined transaction whose receipt and look-up the node serves late for dropped, however long", async () => {
    // A node that shows the transaction in its block, and its sender's nonce used, long before it serves the receipt or
    // the transaction by its hash (a provider whose indexes trail the head).
    let receiptsServed = false;
    const lagging = {
      ...client,
      getTransactionReceipt: (args: { hash: Hex }) =>
        receiptsServed ? client.getTransactionReceipt(args) : Promise.reject(new TransactionReceiptNotFoundError({ hash: args.hash })),
      getTransaction: (args: { hash: Hex }) =>
        receiptsServed ? client.getTransaction(args) : Promise.reject(new TransactionNotFoundError({ hash: args.hash })),
    } as PublicClient;
    const watcher = receiptWatcher(lagging, { pollingIntervalMs: 50 });
    const nonce = await nextNonce();
    const hash = await send(nonce);
    const waiting = watcher.wait({ hashes: () => [hash], sender: { address: sender.address, nonce } }, 10_000);
    let outcome: unknown;
    void waiting.then(
      () => (outcome = "mined"),
      (err: unknown) => (outcome = err),
    );
    // Blocks go by (automine: the transaction is in the first), and the watcher sees the nonce used without a receipt,
    // long past the depth at which the nonce is looked at.
    for (let i = 0; i < 3 * Number(DROP_NONCE_DEPTH) + 2; i++) {
      await rpc("evm_mine");
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(outcome).toBeUndefined();
    receiptsServed = true;
    await rpc("evm_mine");
    const found = await waiting;
    expect(found.hash).toBe(hash);
    expect(found.receipt.status).toBe("success");
  });

  it("looks again in the blocks of a chain that went back to an older state, and tells each new head", async () => {
    const heads: bigint[] = [];
    const watcher = receiptWatcher(client, { pollingIntervalMs: 50, onBlock: (block) => heads.push(block) });
    const snapshot = await rpc("evm_snapshot");
    for (let i = 0; i < 5; i++) await rpc("evm_mine");
    const last = await send(await nextNonce());
    const seen = await watcher.wait({ hashes: () => [last] }, 5_000);
    expect(watcher.head()).toBe(seen.receipt.blockNumber);
    // The chain forgets those blocks (as a node restarted from an older state file): the next ones reuse their numbers.
    await rpc("evm_revert", [snapshot]);
    const nonce = await nextNonce();
    const hash = await send(nonce);
    const found = await watcher.wait({ hashes: () => [hash], sender: { address: sender.address, nonce }, sentAfter: watcher.head() }, 5_000);
    expect(found.hash).toBe(hash);
    expect(found.receipt.blockNumber < seen.receipt.blockNumber).toBe(true);
    expect(watcher.head()).toBe(found.receipt.blockNumber);
    // Told once the receipts of that block were asked (after the wait it settled).
    await vi.waitFor(() => expect(heads.at(-1)).toBe(found.receipt.blockNumber));
  });

  it("gives up on a transaction that no block holds after its timeout", async () => {
    const watcher = receiptWatcher(client, { pollingIntervalMs: 50 });
    const hash = `0x${"ab".repeat(32)}` as Hex;
    const started = Date.now();
    await expect(watcher.wait({ hashes: () => [hash] }, 400)).rejects.toBeInstanceOf(WaitForTransactionReceiptTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });
});

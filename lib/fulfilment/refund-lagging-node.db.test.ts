import { eq } from "drizzle-orm";
import { createPublicClient, http, TransactionNotFoundError, type Hash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS } from "@/lib/devnet/chains";
import { mintUsdc, startEvmChain, usdcBalance, type EvmDevChain } from "@/lib/devnet/evm";
import { anvilRpc } from "@/lib/devnet/evm/rpc";
import type { EvmNetwork } from "@/lib/platform/networks";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { startAdversarialRpc, type AdversarialRpc, type RpcFaults } from "@/test/adversarial/rpc-proxy";
import { chainControl } from "@/test/adversarial/chain-control";
import { chainPayout } from "./chain-payout";
import { createDemoProvider } from "./providers/demo";
import { refundDue, refundFailedOrders } from "./refund";
import { partlyFailedInvoice } from "@/test/fulfilment";

/**
 * Refunds through a JSON-RPC endpoint that lies by omission, as a load-balanced provider does: receipts and look-ups
 * of recent transactions missing, 429s, requests never answered, a head from a node behind. The chain is a real anvil
 * mining a block a second, with the devnet's USDC; what was paid is read from the chain directly, never through the
 * proxy. A refund is paid exactly once, however the endpoint answers, and a transfer the chain really dropped is
 * paid again once the chain proves it dead.
 */

const base = DEVNET_EVM_CHAINS[0];
const arbitrum = DEVNET_EVM_CHAINS[1];
const REFUND_FLOAT = 1_000_000_000n;
const PRICE = 10_000_000n;
/** Receipts and look-ups missing for this many blocks after a transfer is mined (the old "dead" came after one). */
const LAG_BLOCKS = 5;

let database: Database;
let chain: EvmDevChain;
let proxy: AdversarialRpc;
let network: EvmNetwork;
/** A chain at Arbitrum's cadence, a block every 0.25 s, behind a proxy of its own, at Arbitrum's depth. */
let fastChain: EvmDevChain;
let fastProxy: AdversarialRpc;
let fastNetwork: EvmNetwork;
const refundKey = privateKeyToAccount(generatePrivateKey());
const demo = createDemoProvider("lagging node refund test key");
const direct = () => createPublicClient({ transport: http(chain.rpcUrl) });

beforeAll(async () => {
  [database, chain, fastChain] = await Promise.all([
    openTestDatabase(withTestCatalog),
    startEvmChain({ chainId: base.chainId, name: base.name, usdcAddress: DEVNET_USDC_ADDRESS, gasWallets: [refundKey.address], blockTimeSeconds: 1 }),
    startEvmChain({
      chainId: arbitrum.chainId,
      name: arbitrum.name,
      usdcAddress: DEVNET_USDC_ADDRESS,
      gasWallets: [refundKey.address],
      blockTimeSeconds: 0.25,
    }),
  ]);
  await Promise.all([
    mintUsdc(chain.rpcUrl, chain.usdc.address, refundKey.address, REFUND_FLOAT),
    mintUsdc(fastChain.rpcUrl, fastChain.usdc.address, refundKey.address, REFUND_FLOAT),
  ]);
  [proxy, fastProxy] = await Promise.all([startAdversarialRpc(chain.rpcUrl), startAdversarialRpc(fastChain.rpcUrl)]);
  const behind = (c: EvmDevChain, p: AdversarialRpc, key: EvmNetwork["key"], confirmations: number): EvmNetwork => ({
    key,
    kind: "evm",
    network: `eip155:${c.chainId}`,
    chainId: c.chainId,
    name: c.name,
    rpcUrl: p.url,
    payTo: refundKey.address,
    usdc: { ...c.usdc },
    confirmations,
  });
  // The devnet's depth at a block a second, and Arbitrum One's (20 blocks, ~5 s).
  network = behind(chain, proxy, "base", 2);
  fastNetwork = behind(fastChain, fastProxy, "arbitrum", 20);
}, 60_000);
afterAll(async () => {
  await Promise.all([proxy?.close(), fastProxy?.close()]);
  await Promise.all([database?.close(), chain?.stop(), fastChain?.stop()]);
});

const payout = (confirmTimeoutMs = 30_000) =>
  chainPayout({ networks: [network, fastNetwork], evmKey: refundKey, sync: databaseSenderSync(async () => database), confirmTimeoutMs });
const failedOrder = async (invoiceId: string) =>
  (await database.db.select().from(orders).where(eq(orders.invoiceId, invoiceId))).find((o) => o.productId === "test-gift-card-code-fail")!;
const newPayer = (on = network) => ({ chainId: on.network, address: privateKeyToAccount(generatePrivateKey()).address });
const paidTo = (address: `0x${string}`, on = chain) => usdcBalance(on.rpcUrl, on.usdc.address, address);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Refund rounds, as the server runs them (each after the last one's retry time), until the order is refunded. */
async function refundUntilPaid(invoiceId: string, withinMs = 60_000): Promise<void> {
  const p = payout();
  const deadline = Date.now() + withinMs;
  while ((await failedOrder(invoiceId)).status !== "refunded" && Date.now() < deadline) {
    await refundDue(database.db, p, { now: new Date(Date.now() + 61_000) }).catch(() => undefined);
  }
}

/** Waits until no transfer of the refund wallet is left in the pool, and a few blocks more (all it sent is mined). */
const settled = () => settledOn(chain);
async function settledOn(on: EvmDevChain): Promise<void> {
  const client = createPublicClient({ transport: http(on.rpcUrl) });
  for (let i = 0; i < 60; i++) {
    const [latest, pending] = await Promise.all([
      client.getTransactionCount({ address: refundKey.address, blockTag: "latest" }),
      client.getTransactionCount({ address: refundKey.address, blockTag: "pending" }),
    ]);
    if (latest === pending) break;
    await sleep(250);
  }
  await sleep((LAG_BLOCKS + 1) * 1_000);
}

const faults: [string, RpcFaults, ((p: AdversarialRpc) => () => void)?][] = [
  ["receipts and look-ups lag behind the blocks", { lag: { blocks: LAG_BLOCKS } }],
  [
    // Not the sending: viem sends a transaction once, without retrying, and a limit that always hits the send would
    // only delay the refund, round after round.
    "they lag, and every other question about the chain is answered 429",
    {
      lag: { blocks: LAG_BLOCKS },
      tooMany: { methods: ["eth_blockNumber", "eth_getTransactionCount", "eth_getTransactionReceipt", "eth_getTransactionByHash"], every: 2 },
    },
  ],
  [
    "they lag, and look-ups by hash go unanswered (the connection dropped after 300 ms)",
    { lag: { blocks: LAG_BLOCKS }, hang: { methods: ["eth_getTransactionByHash"], ms: 300 } },
  ],
  [
    "they lag (shown unmined), and the head comes from a node two blocks behind, then the current one, in turn",
    { lag: { blocks: LAG_BLOCKS, lookups: "unmined" }, behind: { blocks: 2 } },
    (p) => {
      // The load balancer's nodes take turns: the head goes back and forth.
      const timer = setInterval(() => p.set({ ...p.faults, behind: p.faults.behind ? undefined : { blocks: 2 } }), 700);
      return () => clearInterval(timer);
    },
  ],
];

describe(`refunds behind a lagging JSON-RPC endpoint, a block a second, on ${testDriver}`, () => {
  for (const [name, f, alongside] of faults) {
    it(`pays a refund exactly once when ${name}`, async () => {
      const wallet = newPayer();
      const id = await partlyFailedInvoice(database.db, wallet, demo);
      proxy.set(f);
      proxy.calls.length = 0;
      const stop = alongside?.(proxy);
      try {
        await refundUntilPaid(id);
      } finally {
        stop?.();
        proxy.set({});
      }
      await settled();
      // Paid once: a second transfer signed for a mined one shows here first.
      expect(await paidTo(wallet.address)).toBe(PRICE);
      const order = await failedOrder(id);
      expect(order).toMatchObject({ status: "refunded", refundUsdc: PRICE });
      expect((await direct().getTransactionReceipt({ hash: order.refundTx as Hash })).status).toBe("success");
      // The fault was in force for the questions that decided.
      expect(proxy.calls).toContain("eth_getTransactionReceipt");
    }, 120_000);
  }

  it("pays again, once, a refund whose transfer the chain dropped, after its nonce went to another transaction", async () => {
    const wallet = newPayer();
    const id = await partlyFailedInvoice(database.db, wallet, demo);
    proxy.set({ lag: { blocks: 2 } });
    const client = direct();
    // No blocks while the transfer reaches the pool, so that it can be dropped from there.
    await anvilRpc(chain.rpcUrl, "evm_setIntervalMining", [0]);
    let first: Hash;
    let refunding: Promise<unknown>;
    try {
      refunding = refundFailedOrders(database.db, id, payout());
      for (let i = 0; ; i++) {
        const [latest, pending] = await Promise.all([
          client.getTransactionCount({ address: refundKey.address, blockTag: "latest" }),
          client.getTransactionCount({ address: refundKey.address, blockTag: "pending" }),
        ]);
        if (pending > latest) break;
        if (i > 200) throw new Error("the refund transfer never reached the pool");
        await sleep(50);
      }
      const stored = await failedOrder(id);
      first = stored.refundTx as Hash;
      // The node forgets it, and the wallet's nonce goes to another transaction (a transfer of 0 to itself).
      await anvilRpc(chain.rpcUrl, "anvil_dropTransaction", [first]);
      const other = await refundKey.signTransaction({
        chainId: chain.chainId,
        type: "eip1559",
        to: refundKey.address,
        value: 0n,
        gas: 21_000n,
        nonce: Number(stored.refundExpiry),
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n,
      });
      await client.sendRawTransaction({ serializedTransaction: other });
    } finally {
      await anvilRpc(chain.rpcUrl, "evm_setIntervalMining", [1]);
    }
    // The chain proves the first dead (its nonce used blocks ago, unknown at every question): dropped from the order.
    expect(await refunding).toBeNull();
    expect(await failedOrder(id)).toMatchObject({ status: "failed", refundTx: null, lastError: expect.stringMatching(/can no longer land/) });

    await refundUntilPaid(id);
    proxy.set({});
    await settled();
    expect(await paidTo(wallet.address)).toBe(PRICE);
    const order = await failedOrder(id);
    expect(order).toMatchObject({ status: "refunded", refundUsdc: PRICE });
    expect(order.refundTx).not.toBe(first);
    await expect(client.getTransaction({ hash: first })).rejects.toBeInstanceOf(TransactionNotFoundError);
  }, 120_000);
  it("pays a refund exactly once behind an endpoint that trails the head by 15 blocks for 45 s, at a block a second and at 0.25 s, through restarts", async () => {
    // Each round is a server just started: a new payout, with nothing in memory, watching 5 s; then the next one. The old
    // rule (its nonce used 3 blocks back, not found for 3 more) called the mined transfer dead within 6 blocks here.
    const LAG = { blocks: 15 };
    const LAG_MS = 45_000;
    const sides = [
      { c: chain, p: proxy, n: network },
      { c: fastChain, p: fastProxy, n: fastNetwork },
    ];
    await Promise.all(
      sides.map(async ({ c, p, n }) => {
        const wallet = newPayer(n);
        const id = await partlyFailedInvoice(database.db, wallet, demo);
        p.set({ lag: LAG });
        p.calls.length = 0;
        let rounds = 0;
        const lagEnds = Date.now() + LAG_MS;
        try {
          while (Date.now() < lagEnds) {
            await refundFailedOrders(database.db, id, payout(5_000), { now: new Date(Date.now() + 61_000) }).catch(() => undefined);
            rounds++;
            await sleep(250);
          }
        } finally {
          p.set({});
        }
        expect(rounds).toBeGreaterThan(1);
        expect(p.calls).toContain("eth_getTransactionReceipt");
        for (let i = 0; i < 40 && (await failedOrder(id)).status !== "refunded"; i++) {
          await refundFailedOrders(database.db, id, payout(5_000), { now: new Date(Date.now() + 61_000) }).catch(() => undefined);
        }
        await settledOn(c);
        expect(await paidTo(wallet.address, c)).toBe(PRICE);
        const order = await failedOrder(id);
        expect(order).toMatchObject({ status: "refunded", refundUsdc: PRICE });
        expect((await createPublicClient({ transport: http(c.rpcUrl) }).getTransactionReceipt({ hash: order.refundTx as Hash })).status).toBe("success");
      }),
    );
  }, 150_000);

  it("pays once a refund whose block is reorganized away before the network's depth", async () => {
    const control = chainControl(chain.rpcUrl);
    const client = direct();
    const wallet = newPayer();
    const id = await partlyFailedInvoice(database.db, wallet, demo);
    // A depth of 5 blocks: time to take the transfer's block away before it counts.
    const deep = { ...network, rpcUrl: chain.rpcUrl, confirmations: 5 };
    const deepPayout = () =>
      chainPayout({ networks: [deep], evmKey: refundKey, sync: databaseSenderSync(async () => database), confirmTimeoutMs: 30_000, stuckAfterMs: 3_000 });
    const refunding = refundFailedOrders(database.db, id, deepPayout());
    let hash: Hash | undefined;
    let minedIn: bigint | undefined;
    for (let i = 0; minedIn === undefined; i++) {
      if (i > 300) throw new Error("the refund transfer was never mined");
      hash = ((await failedOrder(id)).refundTx as Hash | null) ?? undefined;
      if (hash) minedIn = (await client.getTransactionReceipt({ hash }).catch(() => undefined))?.blockNumber;
      if (minedIn === undefined) await sleep(50);
    }
    // Three blocks on (two short of the depth), the chain stops, and takes the transfer's block away; the node forgets
    // the transfer too (gone from its pool), so that only the shop can send it again.
    while ((await client.getBlockNumber({ cacheTime: 0 })) - minedIn + 1n < 3n) await sleep(50);
    await control.pauseMining();
    try {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      expect(head - minedIn + 1n).toBeLessThan(5n);
      // Mined, not at the depth: not recorded yet.
      expect(await failedOrder(id)).toMatchObject({ status: "failed", refundTx: hash });
      await control.reorg(Number(head - minedIn + 1n));
      if ((await control.pooled(refundKey.address)).some((t) => t.hash === hash)) await control.dropTransaction(hash!);
      expect(await paidTo(wallet.address)).toBe(0n);
    } finally {
      await control.resumeMining(1);
    }
    await refunding;
    const deadline = Date.now() + 60_000;
    while ((await failedOrder(id)).status !== "refunded" && Date.now() < deadline) {
      await refundFailedOrders(database.db, id, deepPayout(), { now: new Date(Date.now() + 61_000) }).catch(() => undefined);
    }
    await settled();
    expect(await paidTo(wallet.address)).toBe(PRICE);
    const order = await failedOrder(id);
    expect(order).toMatchObject({ status: "refunded", refundUsdc: PRICE });
    const receipt = await client.getTransactionReceipt({ hash: order.refundTx as Hash });
    expect(receipt.status).toBe("success");
    expect((await client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n).toBeGreaterThanOrEqual(5n);
  }, 120_000);
});

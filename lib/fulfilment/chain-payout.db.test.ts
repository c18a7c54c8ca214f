import fs from "node:fs";
import http_ from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
} from "@solana/kit";
import { eq } from "drizzle-orm";
import { createPublicClient, http, type Hash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { anvilRpc } from "@/lib/devnet/evm/rpc";
import { startDevnet, type Devnet } from "@/lib/devnet/start-devnet";
import type { Wallet } from "@/lib/identity";
import type { EvmNetwork, SolanaNetwork } from "@/lib/platform/networks";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { chainPayout, type ChainPayoutOptions } from "./chain-payout";
import { createDemoProvider } from "./providers/demo";
import { refundDue, refundFailedOrders, type Payout } from "./refund";
import { partlyFailedInvoice as partlyFailed } from "@/test/fulfilment";

let database: Database;
let devnet: Devnet;
let dataDir: string;
let base: EvmNetwork;
let solana: SolanaNetwork;
const demo = createDemoProvider("chain refund test key");
/** The refund wallets, generated here: not the devnet's payTo or gas wallets. */
const refundEvm = privateKeyToAccount(generatePrivateKey());
let refundSolana: KeyPairSigner;

const REFUND_FLOAT = 100_000_000n;
const SOL = 1_000_000_000n;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fulfilment-chain-"));
  [database, devnet, refundSolana] = await Promise.all([openTestDatabase(withTestCatalog), startDevnet(dataDir), generateKeyPairSigner()]);
  base = devnet.networks.find((n): n is EvmNetwork => n.key === "base")!;
  solana = devnet.networks.find((n): n is SolanaNetwork => n.kind === "solana")!;
  // The refund wallets' float and gas, as an operator would fund them.
  await devnet.mint(base.network, refundEvm.address, REFUND_FLOAT);
  await anvilRpc(base.rpcUrl, "anvil_setBalance", [refundEvm.address, `0x${(10n ** 18n).toString(16)}`]);
  await devnet.mint(solana.network, refundSolana.address, REFUND_FLOAT);
  await sendSol(solana.rpcUrl, devnet.keys.solanaFacilitator, refundSolana.address, SOL);
}, 120_000);
afterAll(async () => {
  await Promise.all([database?.close(), devnet?.stop()]);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A System Program transfer of SOL from a funded devnet wallet. */
async function sendSol(rpcUrl: string, from: KeyPairSigner, to: Address, lamports: bigint): Promise<void> {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true); // SystemInstruction::Transfer
  view.setBigUint64(4, lamports, true);
  const transfer = {
    programAddress: address("11111111111111111111111111111111"),
    accounts: [
      { address: from.address, role: AccountRole.WRITABLE_SIGNER, signer: from },
      { address: to, role: AccountRole.WRITABLE },
    ],
    data,
  };
  const rpc = createSolanaRpc(rpcUrl);
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions([transfer], m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: "base64" }).send();
}

const partlyFailedInvoice = (wallet: Wallet) => partlyFailed(database.db, wallet, demo);
/** A refund payout with this database's wallet lock and nonces, as the server builds it. */
const payoutWith = (o: Omit<ChainPayoutOptions, "sync">) => chainPayout({ ...o, sync: databaseSenderSync(async () => database), confirmTimeoutMs: 15_000 });

const failedOrder = async (invoiceId: string) =>
  (await database.db.select().from(orders).where(eq(orders.invoiceId, invoiceId))).find((o) => o.productId === "test-gift-card-code-fail")!;

describe(`refunds from a refund wallet on ${testDriver}`, () => {
  it("pays a failed order back in USDC on an EVM chain, from the refund wallet, which pays its own gas", async () => {
    const payout = payoutWith({ networks: devnet.networks, evmKey: refundEvm, solanaKey: refundSolana });
    const wallet = { chainId: base.network, address: privateKeyToAccount(generatePrivateKey()).address };
    const id = await partlyFailedInvoice(wallet);
    const shopBefore = await devnet.balance(base.network, base.payTo);
    const client = createPublicClient({ transport: http(base.rpcUrl) });
    const gasBefore = await client.getBalance({ address: refundEvm.address });

    const refund = await refundFailedOrders(database.db, id, payout);
    expect(refund).toMatchObject({ orders: 1, amountUsdc: 10_000_000n, tx: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await devnet.balance(base.network, wallet.address)).toBe(10_000_000n);
    expect(await devnet.balance(base.network, refundEvm.address)).toBe(REFUND_FLOAT - 10_000_000n);
    expect(await devnet.balance(base.network, base.payTo)).toBe(shopBefore);
    expect(await client.getBalance({ address: refundEvm.address })).toBeLessThan(gasBefore);
    const receipt = await client.getTransactionReceipt({ hash: refund!.tx as `0x${string}` });
    expect(receipt).toMatchObject({ status: "success", from: refundEvm.address.toLowerCase() });
    expect(await failedOrder(id)).toMatchObject({ status: "refunded", refundUsdc: 10_000_000n, refundTx: refund!.tx });
  });

  it("pays back on Solana to the payer's token account, the refund wallet paying the fee", async () => {
    const payout = payoutWith({ networks: devnet.networks, evmKey: refundEvm, solanaKey: refundSolana });
    const wallet = { chainId: solana.network, address: (await generateKeyPairSigner()).address };
    // The payer's token account (it paid from it): 1 atomic USDC left in it.
    await devnet.mint(solana.network, wallet.address, 1n);
    const id = await partlyFailedInvoice(wallet);
    const rpc = createSolanaRpc(solana.rpcUrl);
    const lamports = async (a: Address) => (await rpc.getBalance(a).send()).value;
    const [solBefore, gasWalletBefore] = await Promise.all([lamports(refundSolana.address), lamports(devnet.keys.solanaFacilitator.address)]);

    const refund = await refundFailedOrders(database.db, id, payout);
    expect(refund).toMatchObject({ orders: 1, amountUsdc: 10_000_000n, tx: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/) });
    expect(await devnet.balance(solana.network, wallet.address)).toBe(10_000_001n);
    expect(await devnet.balance(solana.network, refundSolana.address)).toBe(REFUND_FLOAT - 10_000_000n);
    expect(await lamports(refundSolana.address)).toBeLessThan(solBefore);
    expect(await lamports(devnet.keys.solanaFacilitator.address)).toBe(gasWalletBefore);
    const [status] = (await rpc.getSignatureStatuses([refund!.tx as Parameters<typeof rpc.getSignatureStatuses>[0][number]]).send()).value;
    expect(status).toMatchObject({ err: null });
    expect(await failedOrder(id)).toMatchObject({ status: "refunded", refundTx: refund!.tx });
  });

  it("pays no rent on Solana: a payer without a token account (closed since the payment) waits, nothing spent", async () => {
    const payout = payoutWith({ networks: devnet.networks, evmKey: refundEvm, solanaKey: refundSolana });
    const wallet = { chainId: solana.network, address: (await generateKeyPairSigner()).address };
    const id = await partlyFailedInvoice(wallet);
    const rpc = createSolanaRpc(solana.rpcUrl);
    const lamports = async (a: Address) => (await rpc.getBalance(a).send()).value;
    const [solBefore, floatBefore] = await Promise.all([lamports(refundSolana.address), devnet.balance(solana.network, refundSolana.address)]);

    await expect(refundFailedOrders(database.db, id, payout)).rejects.toThrow(/has no USDC token account/);
    expect(await failedOrder(id)).toMatchObject({
      status: "failed",
      refundTx: null,
      lastError: expect.stringMatching(/^refund: the payer .* has no USDC token account/),
    });
    expect(await lamports(refundSolana.address)).toBe(solBefore);
    expect(await devnet.balance(solana.network, refundSolana.address)).toBe(floatBefore);

    // Once the account exists again, the next round pays it.
    await devnet.mint(solana.network, wallet.address, 1n);
    await refundFailedOrders(database.db, id, payout, { now: new Date(Date.now() + 61_000) });
    expect(await devnet.balance(solana.network, wallet.address)).toBe(10_000_001n);
    expect(await failedOrder(id)).toMatchObject({ status: "refunded" });
  });

  it("refuses a network whose family has no refund key, leaving the refund due with the reason", async () => {
    const evmOnly = payoutWith({ networks: devnet.networks, evmKey: refundEvm });
    const wallet = { chainId: solana.network, address: (await generateKeyPairSigner()).address };
    const id = await partlyFailedInvoice(wallet);
    await expect(refundFailedOrders(database.db, id, evmOnly)).rejects.toThrow(`no refund key for ${solana.network}`);
    expect(await failedOrder(id)).toMatchObject({ status: "failed", refundTx: null, lastError: expect.stringMatching(/^refund: no refund key for solana:/) });
    expect(await devnet.balance(solana.network, wallet.address)).toBe(0n);

    const solanaOnly = payoutWith({ networks: devnet.networks, solanaKey: refundSolana });
    await expect(solanaOnly.sign({ network: base.network, payer: wallet.address }, 1n, async () => true)).rejects.toThrow(`no refund key for ${base.network}`);
  });

  it("sends nothing when the refund wallet is short of USDC", async () => {
    const empty = privateKeyToAccount(generatePrivateKey());
    await anvilRpc(base.rpcUrl, "anvil_setBalance", [empty.address, `0x${(10n ** 18n).toString(16)}`]);
    const payer = privateKeyToAccount(generatePrivateKey()).address;
    let stored = false;
    const store = async () => (stored = true);
    await expect(payoutWith({ networks: devnet.networks, evmKey: empty }).sign({ network: base.network, payer }, 10_000_000n, store)).rejects.toThrow(
      /^The refund transfer on eip155:\d+ could not be made: .*transfer amount exceeds balance\.?$/,
    );
    expect(stored).toBe(false);
    expect(await devnet.balance(base.network, payer)).toBe(0n);
  });

  /** The real payout, with a fault: the transfer goes out and then the process "dies" (nothing more is recorded). */
  const dyingAfterSend = (real: Payout): Payout => ({
    ...real,
    send: async (network, p) => {
      await real.send(network, p);
      throw new Error("killed after sending");
    },
    status: async () => {
      throw new Error("killed");
    },
  });

  for (const family of ["evm", "solana"] as const) {
    it(`pays a refund once when the worker died between sending it and recording it (${family}): the restart finds it landed`, async () => {
      const real = payoutWith({ networks: devnet.networks, evmKey: refundEvm, solanaKey: refundSolana });
      const n = family === "evm" ? base : solana;
      const wallet = {
        chainId: n.network,
        address: family === "evm" ? privateKeyToAccount(generatePrivateKey()).address : (await generateKeyPairSigner()).address,
      };
      const id = await partlyFailedInvoice(wallet);
      // A Solana payer has the token account it paid from (refunds go to existing ones only): 1 atomic USDC left in it.
      const left = family === "solana" ? 1n : 0n;
      if (left) await devnet.mint(n.network, wallet.address, left);
      const floatBefore = await devnet.balance(n.network, family === "evm" ? refundEvm.address : refundSolana.address);

      await expect(refundFailedOrders(database.db, id, dyingAfterSend(real))).rejects.toThrow(/killed/);
      const stored = await failedOrder(id);
      expect(stored).toMatchObject({ status: "failed", refundTx: expect.any(String), refundRaw: expect.any(String) });

      // The restart: the next round (after the order's retry time) follows the stored transfer and records it.
      const later = new Date(Date.now() + 61_000);
      for (let i = 0; i < 20 && (await failedOrder(id)).status !== "refunded"; i++) {
        await refundDue(database.db, real, { now: later }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(await failedOrder(id)).toMatchObject({ status: "refunded", refundTx: stored.refundTx, refundRaw: null });
      expect(await devnet.balance(n.network, wallet.address)).toBe(10_000_000n + left);
      expect(await devnet.balance(n.network, family === "evm" ? refundEvm.address : refundSolana.address)).toBe(floatBefore - 10_000_000n);
    });
  }

  it("sends the same stored transfer again after the RPC failed to take it, and pays once", async () => {
    const real = payoutWith({ networks: devnet.networks, evmKey: refundEvm, solanaKey: refundSolana });
    const flaky: Payout = { ...real, send: async () => Promise.reject(new Error("fetch failed: ECONNRESET")), status: async () => ({ status: "pending" }) };
    const wallet = { chainId: base.network, address: privateKeyToAccount(generatePrivateKey()).address };
    const id = await partlyFailedInvoice(wallet);
    await expect(refundFailedOrders(database.db, id, flaky)).rejects.toThrow(/ECONNRESET/);
    const stored = await failedOrder(id);
    expect(await devnet.balance(base.network, wallet.address)).toBe(0n);
    await refundDue(database.db, real, { now: new Date(Date.now() + 61_000) });
    expect(await failedOrder(id)).toMatchObject({ status: "refunded", refundTx: stored.refundTx });
    expect(await devnet.balance(base.network, wallet.address)).toBe(10_000_000n);
  });

  it("calls a stored EVM transfer landed, not dead, when its block is mined between the status questions", async () => {
    // A JSON-RPC proxy before the chain that mines the waiting transfer's block right after its first answer: the one
    // moment where asking for the receipt before the mined count would see no receipt, then the nonce used.
    let mineAfterNext = false;
    const proxy = http_.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        void (async () => {
          const answer = await fetch(base.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
          const text = await answer.text();
          if (mineAfterNext) {
            mineAfterNext = false;
            await anvilRpc(base.rpcUrl, "evm_mine");
          }
          res.writeHead(answer.status, { "content-type": "application/json" }).end(text);
        })();
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const proxied = { ...base, rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
    await anvilRpc(base.rpcUrl, "evm_setAutomine", [false]);
    try {
      const payout = payoutWith({ networks: [proxied], evmKey: refundEvm });
      const payer = privateKeyToAccount(generatePrivateKey()).address;
      const signed = (await payout.sign({ network: base.network, payer }, 1_000_000n, async () => true))!;
      await payout.send(base.network, signed);
      expect(await devnet.balance(base.network, payer)).toBe(0n);
      mineAfterNext = true;
      // Mined between the questions: never dead (its own nonce), at worst not yet seen landed; the next question sees it.
      expect(await payout.status(base.network, [signed])).not.toMatchObject({ status: "dead" });
      expect(await payout.status(base.network, [signed])).toMatchObject({ status: "landed", transaction: signed.transaction });
      expect(await devnet.balance(base.network, payer)).toBe(1_000_000n);
    } finally {
      await anvilRpc(base.rpcUrl, "evm_setAutomine", [true]);
      await new Promise((r) => proxy.close(r));
    }
  });

  it("takes a stored transfer sent again while it waits in the pool as sent, not refused (anvil: transaction already imported)", async () => {
    // A server that starts again after a stop finds its refund transfer in the pool and sends the same bytes: a refusal
    // there would hold the refund back a minute (REFUND_RETRY_MS).
    await anvilRpc(base.rpcUrl, "evm_setAutomine", [false]);
    try {
      const payout = payoutWith({ networks: devnet.networks, evmKey: refundEvm });
      const payer = privateKeyToAccount(generatePrivateKey()).address;
      const signed = (await payout.sign({ network: base.network, payer }, 1_000_000n, async () => true))!;
      await payout.send(base.network, signed);
      await expect(payout.send(base.network, signed)).resolves.toBeUndefined();
      await anvilRpc(base.rpcUrl, "evm_mine");
      // Mined: sent again, its nonce is used ("nonce too low"), nothing more to send either.
      await expect(payout.send(base.network, signed)).resolves.toBeUndefined();
      expect(await devnet.balance(base.network, payer)).toBe(1_000_000n);
    } finally {
      await anvilRpc(base.rpcUrl, "evm_setAutomine", [true]);
    }
  });

  it("sends a refund transfer that a rising base fee keeps out of the blocks again at a higher fee, and records the one mined", async () => {
    const payout = payoutWith({ networks: devnet.networks, evmKey: refundEvm, stuckAfterMs: 3_000 });
    const wallet = { chainId: base.network, address: privateKeyToAccount(generatePrivateKey()).address };
    const id = await partlyFailedInvoice(wallet);
    const client = createPublicClient({ transport: http(base.rpcUrl) });
    const floatBefore = await devnet.balance(base.network, refundEvm.address);
    await anvilRpc(base.rpcUrl, "evm_setAutomine", [false]);
    try {
      const refunding = refundFailedOrders(database.db, id, payout);
      // The transfer waits in the pool at the fee of the moment; then the base fee jumps a hundredfold and more.
      for (let i = 0; i < 200; i++) {
        const [latest, pending] = await Promise.all([
          client.getTransactionCount({ address: refundEvm.address, blockTag: "latest" }),
          client.getTransactionCount({ address: refundEvm.address, blockTag: "pending" }),
        ]);
        if (pending > latest) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const first = (await failedOrder(id)).refundTx!;
      await anvilRpc(base.rpcUrl, "anvil_setNextBlockBaseFeePerGas", [`0x${(500n * 10n ** 9n).toString(16)}`]);
      await anvilRpc(base.rpcUrl, "evm_mine");
      await anvilRpc(base.rpcUrl, "evm_setIntervalMining", [1]);

      const refund = await refunding;
      expect(refund).toMatchObject({ invoiceId: id, amountUsdc: 10_000_000n });
      const mined = await client.getTransaction({ hash: refund!.tx! as Hash });
      // Recorded with the dearer version, which the chain mined; the first is kept beside it, and never landed.
      expect(refund!.tx).not.toBe(first);
      expect(mined.maxFeePerGas! > 100n * 10n ** 9n).toBe(true);
      expect((await client.getTransactionReceipt({ hash: mined.hash })).status).toBe("success");
      await expect(client.getTransactionReceipt({ hash: first as Hash })).rejects.toThrow();
      const order = await failedOrder(id);
      expect(order).toMatchObject({ status: "refunded", refundTx: mined.hash, refundRaw: null });
      expect(order.refundSuperseded?.[0]).toBe(first);
      expect(await devnet.balance(base.network, wallet.address)).toBe(10_000_000n);
      expect(await devnet.balance(base.network, refundEvm.address)).toBe(floatBefore - 10_000_000n);
    } finally {
      await anvilRpc(base.rpcUrl, "evm_setIntervalMining", [0]);
      await anvilRpc(base.rpcUrl, "evm_setAutomine", [true]);
      await anvilRpc(base.rpcUrl, "anvil_setNextBlockBaseFeePerGas", [`0x${(10n ** 9n).toString(16)}`]);
      await anvilRpc(base.rpcUrl, "evm_mine");
    }
  }, 60_000);

  it("never calls a mined transfer dead when its receipt cannot be read (a 429 of the RPC): no answer, pending", async () => {
    // A JSON-RPC proxy that refuses every receipt question with 429 Too Many Requests.
    const proxy = http_.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        void (async () => {
          if (body.includes("eth_getTransactionReceipt")) return res.writeHead(429, { "content-type": "text/plain" }).end("slow down");
          const answer = await fetch(base.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
          res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
        })();
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const proxied = { ...base, rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
      const direct = payoutWith({ networks: devnet.networks, evmKey: refundEvm });
      const payer = privateKeyToAccount(generatePrivateKey()).address;
      const signed = (await direct.sign({ network: base.network, payer }, 1_000_000n, async () => true))!;
      await direct.send(base.network, signed);
      // Mined within moments (anvil mines the block beside the send, not always before the send answers).
      let seen = await direct.status(base.network, [signed]);
      for (let i = 0; i < 20 && seen.status === "pending"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        seen = await direct.status(base.network, [signed]);
      }
      expect(seen).toMatchObject({ status: "landed" });
      // Mined (the nonce is passed), but the receipt cannot be read: not "dead", which would pay the refund again.
      const viaProxy = payoutWith({ networks: [proxied], evmKey: refundEvm });
      expect(await viaProxy.status(base.network, [signed])).toEqual({ status: "pending" });
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  it("lets two workers racing for one refund send one transfer", async () => {
    const real = payoutWith({ networks: devnet.networks, evmKey: refundEvm, solanaKey: refundSolana });
    const wallet = { chainId: base.network, address: privateKeyToAccount(generatePrivateKey()).address };
    const id = await partlyFailedInvoice(wallet);
    const results = await Promise.all([refundFailedOrders(database.db, id, real), refundFailedOrders(database.db, id, real)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await devnet.balance(base.network, wallet.address)).toBe(10_000_000n);
  });
});

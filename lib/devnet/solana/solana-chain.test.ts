import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, expect, afterAll } from "vitest";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import {
  address,
  appendTransactionMessageInstructions,
  compileTransactionMessage,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Signature,
  type TransactionMessageBytesBase64,
} from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactSvmScheme as StockExactSvmClientScheme } from "@x402/svm/exact/client";
import { ExactSvmScheme as ExactSvmFacilitatorScheme } from "@x402/svm/exact/facilitator";
import {
  LOCALNET_GENESIS_HASH,
  LOCALNET_SOLANA_NETWORK,
  LocalnetExactSvmServerScheme,
  localnetExactSvmClient,
  localnetFacilitatorSvmSigner,
  startSolanaChain,
  type SolanaDevChain,
} from "@/lib/devnet/solana";

const REAL_CLUSTERS = ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"];

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function start(opts: Parameters<typeof startSolanaChain>[0] = {}): Promise<SolanaDevChain> {
  const chain = await startSolanaChain(opts);
  cleanups.push(() => chain.stop());
  return chain;
}

async function rawRpc(chain: SolanaDevChain, body: string) {
  const res = await fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
  return { status: res.status, json: (await res.json()) as unknown };
}

async function usdcAta(chain: SolanaDevChain, owner: string) {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(chain.usdc.mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

describe("local Solana chain", () => {
  it("has a genesis hash of its own, and is offered under the devnet cluster id that x402 clients know", async () => {
    const genesis = getBase58Decoder().decode(createHash("sha256").update("x402-storefront-localnet").digest());
    expect(LOCALNET_GENESIS_HASH).toBe(genesis);
    expect(REAL_CLUSTERS.map((c) => c.slice("solana:".length))).not.toContain(genesis.slice(0, 32));
    expect(LOCALNET_SOLANA_NETWORK).toBe(REAL_CLUSTERS[1]);

    const chain = await start();
    expect(chain.network).toBe(LOCALNET_SOLANA_NETWORK);
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const rpc = createSolanaRpc(chain.rpcUrl);
    expect(await rpc.getGenesisHash().send()).toBe(genesis);
    expect(await rpc.getHealth().send()).toBe("ok");
  });

  it("mints USDC from the faucet and reports the balance over JSON-RPC", async () => {
    const chain = await start();
    const wallet = await generateKeyPairSigner();
    const rpc = createSolanaRpc(chain.rpcUrl);

    const signature = await chain.mintUsdc(wallet.address, 1_500_000n);
    await chain.mintUsdc(wallet.address, 250_000n);
    const ata = await usdcAta(chain, wallet.address);
    const balance = await rpc.getTokenAccountBalance(ata).send();
    expect(balance.value).toMatchObject({ amount: "1750000", decimals: 6, uiAmountString: "1.75" });
    expect(await chain.usdcBalance(wallet.address)).toBe(1_750_000n);

    const [status] = (await rpc.getSignatureStatuses([signature as Signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: "finalized" });

    const mintInfo = await rpc.getAccountInfo(address(chain.usdc.mint), { encoding: "base64" }).send();
    expect(mintInfo.value?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(mintInfo.context.slot).toBeTypeOf("bigint");
    const parsed = await rpc.getAccountInfo(ata, { encoding: "jsonParsed" }).send();
    expect(parsed.value?.data).toMatchObject({ parsed: { type: "account", info: { owner: wallet.address } } });

    chain.airdrop(wallet.address, 2_000_000_000n);
    expect((await rpc.getBalance(wallet.address).send()).value).toBe(2_000_000_000n);
    const { value: blockhash } = await rpc.getLatestBlockhash().send();
    expect((await rpc.isBlockhashValid(blockhash.blockhash).send()).value).toBe(true);
    expect(blockhash.lastValidBlockHeight).toBeGreaterThan(await rpc.getBlockHeight().send());
  });

  it("answers JSON-RPC errors and batches", async () => {
    const chain = await start();
    expect((await rawRpc(chain, `{"jsonrpc":"2.0","id":1,"method":"noSuchMethod","params":[]}`)).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: "Method not found" },
    });
    expect((await rawRpc(chain, `{"jsonrpc":"2.0","id":1,"method":`)).json).toMatchObject({
      id: null,
      error: { code: -32700 },
    });
    const batch = await rawRpc(chain, `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getBalance","params":["nope"]}]`);
    expect(batch.json).toMatchObject([
      { id: 1, result: expect.any(Number) },
      { id: 2, error: { code: -32602 } },
    ]);
    const sent = await rawRpc(chain, `{"jsonrpc":"2.0","id":3,"method":"sendTransaction","params":["AQID",{"encoding":"base64"}]}`);
    expect(sent.json).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining("invalid transaction") } });

    const foreign = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://example.com" },
      body: `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`,
    });
    expect(foreign.status).toBe(403);
  });

  it("rejects a failing transaction at preflight, and lands it with an error status when preflight is skipped", async () => {
    const [owner, to] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const chain = await start({ feePayers: [owner.address], tokenOwners: [to.address] });
    const rpc = createSolanaRpc(chain.rpcUrl);
    await chain.mintUsdc(owner.address, 10n);
    const [ataOwner, ataTo] = [await usdcAta(chain, owner.address), await usdcAta(chain, to.address)];
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(owner, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferCheckedInstruction({
              source: ataOwner,
              mint: address(chain.usdc.mint),
              destination: ataTo,
              authority: owner,
              amount: 11n, // one more than the owner has
              decimals: 6,
            }),
          ],
          m,
        ),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    const wire = getBase64EncodedWireTransaction(transaction);

    const messageBase64 = Buffer.from(getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message))).toString(
      "base64",
    ) as TransactionMessageBytesBase64;
    expect((await rpc.getFeeForMessage(messageBase64).send()).value).toBe(5_000n);

    const simulated = await rpc.simulateTransaction(wire, { encoding: "base64" }).send();
    expect(simulated.value.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });

    await expect(rpc.sendTransaction(wire, { encoding: "base64" }).send()).rejects.toThrow();
    const before = (await rpc.getBalance(owner.address).send()).value;
    expect(before).toBe(100_000_000_000n);

    const signature = await rpc.sendTransaction(wire, { encoding: "base64", skipPreflight: true }).send();
    expect(signature).toBe(getSignatureFromTransaction(transaction));
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    expect((await rpc.getBalance(owner.address).send()).value).toBe(before - 5_000n);
    expect(await chain.usdcBalance(owner.address)).toBe(10n);

    // A blockhash the chain never issued (or one older than 150 slots) is refused, as on a cluster.
    const stale = await signTransactionMessageWithSigners(
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: getBase58Decoder().decode(new Uint8Array(32).fill(7)) as typeof lifetime.blockhash, lastValidBlockHeight: 0n },
        message,
      ),
    );
    const refused = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(stale), { encoding: "base64", skipPreflight: true })
      .send()
      .catch((err: unknown) => err);
    // @solana/kit reads the RPC error's data the way it reads a cluster's: the cause is the transaction error.
    expect(refused).toMatchObject({ message: "Transaction simulation failed", context: { __code: -32002 } });
    expect((refused as Error).cause).toMatchObject({ message: "Blockhash not found" });
  });

  it("answers getTransaction for what it processed: the transaction, its fee, and its balances before and after", async () => {
    const [owner, to] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const chain = await start({ feePayers: [owner.address], tokenOwners: [to.address] });
    const rpc = createSolanaRpc(chain.rpcUrl);
    await chain.mintUsdc(owner.address, 10_000n);
    await chain.mintUsdc(to.address, 500n);
    const [ataOwner, ataTo] = [await usdcAta(chain, owner.address), await usdcAta(chain, to.address)];
    const transfer = async (amount: bigint) => {
      const { value: lifetime } = await rpc.getLatestBlockhash().send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(owner, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [getTransferCheckedInstruction({ source: ataOwner, mint: address(chain.usdc.mint), destination: ataTo, authority: owner, amount, decimals: 6 })],
            m,
          ),
      );
      const signed = await signTransactionMessageWithSigners(message);
      return rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", skipPreflight: true }).send();
    };
    const lamportsBefore = (await rpc.getBalance(owner.address).send()).value;

    const signature = await transfer(2_500n);
    const tx = await rpc.getTransaction(signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }).send();
    expect(tx).not.toBeNull();
    const keys = tx!.transaction.message.accountKeys;
    const at = (key: string) => keys.indexOf(key as (typeof keys)[number]);
    expect(tx!.transaction.signatures).toEqual([signature]);
    expect(String(tx!.version)).toBe("0"); // kit reads every number as a bigint
    expect(tx!.slot).toBe((await rpc.getSignatureStatuses([signature]).send()).value[0]?.slot);
    expect(Number(tx!.blockTime)).toBeCloseTo(Date.now() / 1000, -1);
    expect(tx!.meta).toMatchObject({ err: null, fee: 5_000n });
    // The lamports are the chain's own: the fee payer's balance fell by the fee, and it holds what postBalances says.
    const payerIndex = at(owner.address);
    expect(payerIndex).toBe(0);
    expect(tx!.meta!.preBalances[payerIndex]).toBe(lamportsBefore);
    expect(tx!.meta!.postBalances[payerIndex]).toBe(lamportsBefore - 5_000n);
    expect((await rpc.getBalance(owner.address).send()).value).toBe(lamportsBefore - 5_000n);
    const token = (owner: string, amount: string, ata: string) => ({
      accountIndex: at(ata),
      mint: chain.usdc.mint,
      owner,
      programId: TOKEN_PROGRAM_ADDRESS,
      uiTokenAmount: expect.objectContaining({ amount, decimals: 6 }),
    });
    expect(tx!.meta!.preTokenBalances).toEqual(expect.arrayContaining([token(owner.address, "10000", ataOwner), token(to.address, "500", ataTo)]));
    expect(tx!.meta!.postTokenBalances).toEqual(expect.arrayContaining([token(owner.address, "7500", ataOwner), token(to.address, "3000", ataTo)]));
    expect(tx!.meta!.postTokenBalances).toHaveLength(2);
    expect((await rpc.getTokenAccountBalance(ataTo).send()).value.amount).toBe("3000");
    expect(tx!.meta!.logMessages?.join("\n")).toMatch(/Tokenkeg.* success/);

    // jsonParsed names the accounts; the balances are the same.
    const parsed = await rpc.getTransaction(signature, { encoding: "jsonParsed", commitment: "confirmed", maxSupportedTransactionVersion: 0 }).send();
    expect(parsed!.transaction.message.accountKeys[0]).toEqual({ pubkey: owner.address, signer: true, writable: true, source: "transaction" });
    expect(parsed!.meta!.postTokenBalances).toEqual(tx!.meta!.postTokenBalances);

    // The faucet's mint to a new wallet creates its token account in the same transaction: it has no balance before.
    const newcomer = await generateKeyPairSigner();
    const minted = await chain.mintUsdc(newcomer.address, 42n);
    const mintTx = await rpc.getTransaction(minted as Signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }).send();
    const newcomerAta = await usdcAta(chain, newcomer.address);
    expect(mintTx!.meta!.postTokenBalances).toEqual([
      expect.objectContaining({
        owner: newcomer.address,
        accountIndex: mintTx!.transaction.message.accountKeys.indexOf(newcomerAta),
        uiTokenAmount: expect.objectContaining({ amount: "42" }),
      }),
    ]);
    expect(mintTx!.meta!.preTokenBalances).toEqual([]);

    // A transaction that failed: its error, its fee charged, no token moved.
    const failed = await transfer(1_000_000n);
    const failedTx = await rpc.getTransaction(failed, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }).send();
    expect(failedTx!.meta!.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    expect(failedTx!.meta!.postBalances[0]).toBe(failedTx!.meta!.preBalances[0]! - 5_000n);
    expect(failedTx!.meta!.postTokenBalances).toEqual(failedTx!.meta!.preTokenBalances);

    // A signature it never processed: null. A version-0 transaction asked for without maxSupportedTransactionVersion, or
    // at the processed commitment: refused, as a node does.
    const unknown = getBase58Decoder().decode(new Uint8Array(64).fill(9)) as Signature;
    expect(await rpc.getTransaction(unknown, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }).send()).toBeNull();
    await expect(rpc.getTransaction(signature, { encoding: "json", commitment: "confirmed" }).send()).rejects.toThrow(/maxSupportedTransactionVersion/);
    const processed = await rawRpc(
      chain,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getTransaction", params: [signature, { commitment: "processed", maxSupportedTransactionVersion: 0 }] }),
    );
    expect(processed.json).toMatchObject({ error: { code: -32602, message: expect.stringContaining("below `confirmed`") } });
  });

  it("serves a transaction only once its slot is confirmed, and at finalized 32 slots later, when confirming by slot", async () => {
    const chain = await start({ confirmBySlot: true });
    const rpc = createSolanaRpc(chain.rpcUrl);
    const wallet = await generateKeyPairSigner();
    const signature = (await chain.mintUsdc(wallet.address, 7n)) as Signature;
    const ask = (commitment: "confirmed" | "finalized") =>
      rpc.getTransaction(signature, { encoding: "json", commitment, maxSupportedTransactionVersion: 0 }).send();
    expect(await ask("finalized")).toBeNull();
    await new Promise((r) => setTimeout(r, 450));
    expect((await ask("confirmed"))?.meta?.err).toBeNull();
    expect(await ask("finalized")).toBeNull();

    // A blockhash is valid for a bank that has it: the newest one at once, the finalized one (a node's default; kit
    // asks at confirmed unless told) 32 slots later.
    const { value: latest } = await rpc.getLatestBlockhash().send();
    const valid = async (commitment: "processed" | "confirmed" | "finalized") => (await rpc.isBlockhashValid(latest.blockhash, { commitment }).send()).value;
    expect(await valid("processed")).toBe(true);
    expect(await valid("finalized")).toBe(false);
    const byDefault = await rawRpc(chain, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "isBlockhashValid", params: [latest.blockhash] }));
    expect(byDefault.json).toMatchObject({ result: { value: false } });
    await new Promise((r) => setTimeout(r, 450));
    expect(await valid("confirmed")).toBe(true);
    expect(await valid("finalized")).toBe(false);
  });

  it("lists the transactions that name an address, newest first, once confirmed (getSignaturesForAddress)", async () => {
    const chain = await start({ confirmBySlot: true });
    const rpc = createSolanaRpc(chain.rpcUrl);
    const [a, b] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const [first, second, other] = [await chain.mintUsdc(a.address, 1n), await chain.mintUsdc(a.address, 2n), await chain.mintUsdc(b.address, 3n)];
    const [ataA, ataB, mint] = [await usdcAta(chain, a.address), await usdcAta(chain, b.address), address(chain.usdc.mint)];
    type Options = Parameters<typeof rpc.getSignaturesForAddress>[1];
    const list = async (of: typeof mint, options: Options = {}) =>
      (await rpc.getSignaturesForAddress(of, { commitment: "confirmed", ...options }).send()).map((s) => s.signature);

    // In their own slot they are only processed: not listed.
    expect(await list(ataA)).toEqual([]);
    await new Promise((r) => setTimeout(r, 450));
    const [newest] = await rpc.getSignaturesForAddress(ataA, { commitment: "confirmed" }).send();
    expect(newest).toMatchObject({
      signature: second,
      err: null,
      confirmationStatus: "confirmed",
      memo: expect.stringMatching(/^\[30\] devnet faucet [0-9a-f]{16}$/),
    });
    expect(newest!.slot).toBe((await rpc.getSignatureStatuses([second as Signature]).send()).value[0]?.slot);
    expect(Number(newest!.blockTime)).toBeCloseTo(Date.now() / 1000, -1);
    expect(await list(ataA)).toEqual([second, first]);
    expect(await list(ataB)).toEqual([other]);
    expect(await list(mint)).toEqual([other, second, first]);
    // Paged by limit, before and until; before and until may name a transaction that does not name the address.
    expect(await list(mint, { limit: 1 })).toEqual([other]);
    expect(await list(mint, { before: other as Signature })).toEqual([second, first]);
    expect(await list(ataA, { before: other as Signature })).toEqual([second, first]);
    expect(await list(mint, { until: first as Signature })).toEqual([other, second]);
    expect(await list(ataB, { before: second as Signature })).toEqual([]);
    const unknown = getBase58Decoder().decode(new Uint8Array(64).fill(7)) as Signature;
    expect(await list(mint, { before: unknown })).toEqual([]);
    expect(await list(mint, { until: unknown })).toEqual([other, second, first]);
    expect(await list((await generateKeyPairSigner()).address)).toEqual([]);
    // At finalized (a node's default) not yet; refused below confirmed or beyond a page of 1,000, as a node does.
    const raw = async (options?: Record<string, unknown>) =>
      (await rawRpc(chain, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSignaturesForAddress", params: options ? [ataA, options] : [ataA] }))).json;
    expect(await list(ataA, { commitment: "finalized" })).toEqual([]);
    expect(await raw()).toEqual({ jsonrpc: "2.0", id: 1, result: [] });
    expect(await raw({ commitment: "processed" })).toMatchObject({ error: { code: -32602, message: expect.stringContaining("below `confirmed`") } });
    expect(await raw({ limit: 1001 })).toMatchObject({ error: { code: -32602, message: "Invalid limit; max 1000" } });
    expect(await raw({ limit: 0 })).toMatchObject({ error: { code: -32602, message: "Invalid limit; max 1000" } });
  });

  it("verifies and settles an x402 exact payment with the official client and facilitator", async () => {
    const [payTo, feePayer, payer, stranger] = await Promise.all([
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner(),
    ]);
    const chain = await start({ feePayers: [feePayer.address], tokenOwners: [payTo.address, stranger.address] });
    const rpc = createSolanaRpc(chain.rpcUrl);
    expect((await rpc.getBalance(feePayer.address).send()).value).toBe(100_000_000_000n);
    expect((await rpc.getAccountInfo(await usdcAta(chain, payTo.address), { encoding: "base64" }).send()).value).not.toBeNull();
    await chain.mintUsdc(payer.address, 5_000n);

    const facilitator = new x402Facilitator().register(chain.network, new ExactSvmFacilitatorScheme(localnetFacilitatorSvmSigner(feePayer, chain)));
    const client = new x402Client().register(chain.network, localnetExactSvmClient(payer, chain));
    const requirementsFor = (over: Partial<PaymentRequirements> = {}): PaymentRequirements => ({
      scheme: "exact",
      network: chain.network,
      amount: "2000",
      asset: chain.usdc.mint,
      payTo: payTo.address,
      maxTimeoutSeconds: 60,
      extra: { feePayer: feePayer.address },
      ...over,
    });
    const pay = (requirements: PaymentRequirements): Promise<PaymentPayload> =>
      client.createPaymentPayload({
        x402Version: 2,
        resource: { url: "http://localhost/api/test" },
        accepts: [requirements],
      } as PaymentRequired);

    // The stock client, unchanged, pays the local chain given its RPC URL.
    const stock = await new StockExactSvmClientScheme(payer, { rpcUrl: chain.rpcUrl }).createPaymentPayload(2, requirementsFor());
    expect(stock.payload).toHaveProperty("transaction");

    const requirements = requirementsFor();
    const payload = await pay(requirements);
    expect(payload.accepted).toEqual(requirements);

    const verified = await facilitator.verify(payload, requirements);
    expect(verified).toMatchObject({ isValid: true, payer: payer.address });

    const settled = await facilitator.settle(payload, requirements);
    expect(settled).toMatchObject({ success: true, network: chain.network, payer: payer.address });
    expect(settled.transaction).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const [status] = (await rpc.getSignatureStatuses([settled.transaction as Signature]).send()).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: "finalized" });
    // The fee reported is what the fee payer was charged (a priority fee included), and the shop's token balance rose.
    const settledTx = await rpc
      .getTransaction(settled.transaction as Signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 })
      .send();
    const feePayerIndex = settledTx!.transaction.message.accountKeys.indexOf(feePayer.address);
    expect(settledTx!.meta!.preBalances[feePayerIndex]! - settledTx!.meta!.postBalances[feePayerIndex]!).toBe(settledTx!.meta!.fee);
    expect(settledTx!.meta!.postTokenBalances?.find((b) => b.owner === payTo.address)?.uiTokenAmount.amount).toBe("2000");
    expect(await chain.usdcBalance(payTo.address)).toBe(2_000n);
    expect(await chain.usdcBalance(payer.address)).toBe(3_000n);

    const again = await facilitator.settle(payload, requirements);
    expect(again.success).toBe(false);
    expect(await chain.usdcBalance(payTo.address)).toBe(2_000n);

    // The chain itself refuses a replay of the settled transaction, too.
    const fullySigned = await localnetFacilitatorSvmSigner(feePayer, chain).signTransaction(
      (payload.payload as { transaction: string }).transaction,
      feePayer.address,
      chain.network,
    );
    const replay = await rawRpc(
      chain,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: [fullySigned, { encoding: "base64", skipPreflight: true }],
      }),
    );
    expect(replay.json).toMatchObject({ error: { code: -32002, message: expect.stringContaining("AlreadyProcessed") } });

    // More than the payer holds.
    const tooMuch = requirementsFor({ amount: "5000" });
    const overVerify = await facilitator.verify(await pay(tooMuch), tooMuch);
    expect(overVerify.isValid).toBe(false);

    // Paid to someone else than the payTo of the requirements.
    const elsewhere = await pay(requirementsFor({ payTo: stranger.address }));
    const wrongPayTo = await facilitator.verify(elsewhere, requirements);
    expect(wrongPayTo).toMatchObject({ isValid: false });
    expect(wrongPayTo.invalidReason).toMatch(/recipient/i);
    expect((await facilitator.settle(elsewhere, requirements)).success).toBe(false);

    expect(await chain.usdcBalance(payTo.address)).toBe(2_000n);
    expect(await chain.usdcBalance(stranger.address)).toBe(0n);
    expect(await chain.usdcBalance(payer.address)).toBe(3_000n);
  });

  it("gives the resource server the local USDC's decimals and $ prices", async () => {
    const chain = await start();
    const server = new LocalnetExactSvmServerScheme(chain);
    expect(server.getAssetDecimals(chain.usdc.mint, chain.network)).toBe(6);
    expect(await server.parsePrice("$0.002", chain.network)).toEqual({
      amount: "2000",
      asset: chain.usdc.mint,
      extra: {},
    });
  });

  it("keeps its mint and balances across a restart with a state file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "solana-devnet-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const stateFile = path.join(dir, "nested", "solana.json");
    const wallet = await generateKeyPairSigner();
    const gas = await generateKeyPairSigner();

    const first = await start({ stateFile });
    await first.mintUsdc(wallet.address, 1_234n);
    first.airdrop(gas.address, 5_000_000_000n);
    await first.stop();
    const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { mint: { address: string } };
    expect(saved.mint.address).toBe(first.usdc.mint);
    expect(fs.readdirSync(path.dirname(stateFile))).toEqual(["solana.json"]);

    const second = await start({ stateFile });
    expect(second.usdc.mint).toBe(first.usdc.mint);
    expect(await second.usdcBalance(wallet.address)).toBe(1_234n);
    const rpc = createSolanaRpc(second.rpcUrl);
    expect((await rpc.getTokenAccountBalance(await usdcAta(second, wallet.address)).send()).value.amount).toBe("1234");
    expect((await rpc.getBalance(gas.address).send()).value).toBe(5_000_000_000n);
    // The mint authority came back too: the faucet still works.
    await second.mintUsdc(wallet.address, 1_000n);
    expect(await second.usdcBalance(wallet.address)).toBe(2_234n);
    await second.stop();

    const third = await start({ stateFile });
    expect(await third.usdcBalance(wallet.address)).toBe(2_234n);
  });
});

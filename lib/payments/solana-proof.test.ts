import { createHash } from "node:crypto";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from "@solana/kit";
import { afterAll, describe, expect, it } from "vitest";
import { startSolanaChain, type SolanaDevChain } from "@/lib/devnet/solana";
import type { SolanaNetwork } from "@/lib/platform/networks";
import { confirmSolanaPayment, findSolanaPayment, judgeTransaction, solanaTransferLanded, type ConfirmedTransaction } from "./solana-proof";

const MINT = "USDCmint1111111111111111111111111111111111";
const OTHER_MINT = "OtherMint111111111111111111111111111111111";
const SHOP = "Shop111111111111111111111111111111111111111";
const PAYER = "Payer11111111111111111111111111111111111111";

const balance = (accountIndex: number, owner: string, amount: bigint, mint = MINT) => ({
  accountIndex,
  mint,
  owner,
  programId: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  uiTokenAmount: { amount: amount.toString(), decimals: 6, uiAmount: Number(amount) / 1e6, uiAmountString: String(Number(amount) / 1e6) },
});
const tx = (pre: ReturnType<typeof balance>[], post: ReturnType<typeof balance>[], err: unknown = null, messageBytes?: Uint8Array): ConfirmedTransaction => ({
  meta: { err, preTokenBalances: pre, postTokenBalances: post },
  messageBytes,
});
const due = { payTo: SHOP, amount: 2_000n };

describe("judging a Solana transaction by its token balances", () => {
  it("lands a successful transaction that raised the shop's USDC by the amount, or more", () => {
    expect(judgeTransaction(tx([balance(1, PAYER, 5_000n), balance(2, SHOP, 100n)], [balance(1, PAYER, 3_000n), balance(2, SHOP, 2_100n)]), MINT, due)).toEqual(
      {
        outcome: "landed",
      },
    );
    expect(judgeTransaction(tx([balance(2, SHOP, 0n)], [balance(2, SHOP, 2_500n)]), MINT, due)).toEqual({ outcome: "landed" });
  });

  it("counts a token account the transaction created (no balance before) as holding 0", () => {
    expect(judgeTransaction(tx([balance(1, PAYER, 5_000n)], [balance(1, PAYER, 3_000n), balance(3, SHOP, 2_000n)]), MINT, due)).toEqual({ outcome: "landed" });
  });

  it("matches by owner and mint, not by index: the shop's account may sit anywhere in the transaction", () => {
    // Listed at different indexes before and after (as for two accounts of the shop): the sums are compared.
    const moved = tx([balance(4, SHOP, 1_000n), balance(5, SHOP, 0n)], [balance(4, SHOP, 1_000n), balance(5, SHOP, 2_000n)]);
    expect(judgeTransaction(moved, MINT, due)).toEqual({ outcome: "landed" });
  });

  it("refuses a failed transaction, even with balances that look paid", () => {
    const failed = tx([balance(2, SHOP, 0n)], [balance(2, SHOP, 2_000n)], { InstructionError: [0n, { Custom: 1n }] });
    expect(judgeTransaction(failed, MINT, due)).toMatchObject({ outcome: "absent", found: true, why: expect.stringMatching(/failed.*Custom/) });
  });

  it("refuses one that paid someone else, paid another token, or paid less", () => {
    const elsewhere = tx([balance(1, PAYER, 5_000n)], [balance(1, PAYER, 3_000n), balance(2, "Someone1111111111111111111111111111111111", 2_000n)]);
    expect(judgeTransaction(elsewhere, MINT, due)).toMatchObject({ outcome: "absent", found: true, why: expect.stringMatching(/paid nothing to the shop/) });
    const otherToken = tx([balance(2, SHOP, 0n, OTHER_MINT)], [balance(2, SHOP, 2_000n, OTHER_MINT)]);
    expect(judgeTransaction(otherToken, MINT, due)).toMatchObject({ outcome: "absent", found: true });
    const less = tx([balance(2, SHOP, 0n)], [balance(2, SHOP, 1_999n)]);
    expect(judgeTransaction(less, MINT, due)).toMatchObject({ outcome: "absent", found: true, why: expect.stringMatching(/1999 .*less than the 2000/) });
    // The shop's balance fell: nothing arrived.
    const out = tx([balance(2, SHOP, 5_000n)], [balance(2, SHOP, 3_000n)]);
    expect(judgeTransaction(out, MINT, due)).toMatchObject({ outcome: "absent", found: true });
    // No token balances at all (a plain SOL transfer, say).
    expect(judgeTransaction({ meta: { err: null } }, MINT, due)).toMatchObject({ outcome: "absent", found: true });
  });

  it("refuses another payment's transaction when the payment's identity is known", () => {
    const message = new Uint8Array([1, 2, 3]);
    const identity = createHash("sha256").update(message).digest("hex");
    const paid = (bytes: Uint8Array) => tx([balance(2, SHOP, 0n)], [balance(2, SHOP, 2_000n)], null, bytes);
    expect(judgeTransaction(paid(message), MINT, { ...due, identity })).toEqual({ outcome: "landed" });
    expect(judgeTransaction(paid(new Uint8Array([9])), MINT, { ...due, identity })).toMatchObject({
      outcome: "absent",
      found: true,
      why: expect.stringMatching(/not this payment's/),
    });
    // Another transaction's failure is not this payment's either: it says nothing of it.
    const failedOther = tx([balance(2, SHOP, 0n)], [balance(2, SHOP, 0n)], { InstructionError: [0n, { Custom: 1n }] }, new Uint8Array([9]));
    expect(judgeTransaction(failedOther, MINT, { ...due, identity })).toEqual({
      outcome: "absent",
      found: true,
      other: true,
      why: expect.stringMatching(/not this payment's/),
    });
  });

  it("says absent, not found, for a transaction the node does not have; unknown for one without meta", () => {
    expect(judgeTransaction(null, MINT, due)).toMatchObject({ outcome: "absent", found: false });
    expect(judgeTransaction({ meta: null }, MINT, due)).toEqual({ outcome: "unknown" });
  });
});

describe("solanaTransferLanded against the local Solana chain", () => {
  let chain: SolanaDevChain;
  afterAll(() => chain?.stop());

  const networkOf = (c: SolanaDevChain, payTo: string): SolanaNetwork => ({
    kind: "solana",
    key: "solana",
    network: c.network,
    name: c.name,
    rpcUrl: c.rpcUrl,
    payTo,
    usdc: c.usdc,
  });

  /** A USDC transfer signed and sent by `from` (its own fee payer); skipPreflight lets a failing one land. */
  async function send(from: KeyPairSigner, to: string, amount: bigint) {
    const rpc = createSolanaRpc(chain.rpcUrl);
    const ata = async (owner: string) =>
      (await findAssociatedTokenPda({ owner: address(owner), mint: address(chain.usdc.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
    const [source, destination] = [await ata(from.address), await ata(to)];
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const signed = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(from, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getTransferCheckedInstruction({
                source,
                mint: address(chain.usdc.mint),
                destination,
                authority: from,
                amount,
                decimals: 6,
              }),
            ],
            m,
          ),
      ),
    );
    const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", skipPreflight: true }).send();
    return { signature, identity: createHash("sha256").update(new Uint8Array(signed.messageBytes)).digest("hex") };
  }

  it("lands a real payment to the shop, and nothing else", async () => {
    const [shop, payer, stranger] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
    chain = await startSolanaChain({ feePayers: [payer.address], tokenOwners: [shop.address, stranger.address] });
    const n = networkOf(chain, shop.address);
    await chain.mintUsdc(payer.address, 10_000n);

    const paid = await send(payer, shop.address, 2_000n);
    expect(await solanaTransferLanded(n, paid.signature, { payTo: shop.address, amount: 2_000n })).toEqual({ outcome: "landed" });
    expect(await solanaTransferLanded(n, paid.signature, { payTo: shop.address, amount: 2_000n, identity: paid.identity })).toEqual({ outcome: "landed" });
    // The same transaction named for another payment (another message: two equal transfers in one slot would be one
    // transaction), or for more than it paid.
    const other = await send(payer, shop.address, 2_500n);
    expect(await solanaTransferLanded(n, paid.signature, { payTo: shop.address, amount: 2_000n, identity: other.identity })).toMatchObject({
      outcome: "absent",
      found: true,
    });
    expect(await solanaTransferLanded(n, paid.signature, { payTo: shop.address, amount: 2_001n })).toMatchObject({ outcome: "absent", found: true });

    // A real confirmed transaction that paid someone else: the faucet's mint, a transfer to a stranger.
    const minted = await chain.mintUsdc(stranger.address, 5_000n);
    expect(await solanaTransferLanded(n, minted, { payTo: shop.address, amount: 1n })).toMatchObject({ outcome: "absent", found: true });
    const elsewhere = await send(payer, stranger.address, 2_000n);
    expect(await solanaTransferLanded(n, elsewhere.signature, { payTo: shop.address, amount: 2_000n })).toMatchObject({ outcome: "absent", found: true });
    // A transfer that failed on chain (more than the payer holds), its fee charged.
    const failed = await send(payer, shop.address, 1_000_000n);
    expect(await solanaTransferLanded(n, failed.signature, { payTo: shop.address, amount: 1n })).toMatchObject({
      outcome: "absent",
      found: true,
      why: expect.stringMatching(/failed/),
    });
    // A signature the chain never saw.
    const random = getBase58Decoder().decode(new Uint8Array(64).fill(3));
    expect(await solanaTransferLanded(n, random, { payTo: shop.address, amount: 1n })).toMatchObject({ outcome: "absent", found: false });

    // A payment is found by its message among the shop's token account's transactions, whatever signature is named: its
    // own, another real one, one the chain never saw, or none.
    const sought = (p: { identity: string }, amount = 2_000n, validUntil = new Date(Date.now() + 60_000)) => ({
      payTo: shop.address,
      amount,
      identity: p.identity,
      validUntil,
    });
    for (const named of [paid.signature, minted, elsewhere.signature, failed.signature, random, undefined]) {
      expect(await findSolanaPayment(n, sought(paid), named), named).toEqual({ outcome: "landed", transaction: paid.signature });
    }
    // Its own transaction, confirmed without paying the shop what is due (or failed): it never can.
    expect(await findSolanaPayment(n, sought(paid, 2_001n), random)).toMatchObject({
      outcome: "failed",
      transaction: paid.signature,
      why: expect.stringMatching(/less than/),
    });
    expect(await findSolanaPayment(n, sought(failed, 1n), elsewhere.signature)).toMatchObject({
      outcome: "failed",
      transaction: failed.signature,
      why: expect.stringMatching(/failed/),
    });
    // A payment never sent: absent, with what the named transaction is (another payment's failure says nothing of it).
    const unsent = { identity: "00".repeat(32) };
    expect(await findSolanaPayment(n, sought(unsent), elsewhere.signature)).toEqual({ outcome: "absent", why: expect.stringMatching(/not this payment's/) });
    expect(await findSolanaPayment(n, sought(unsent), failed.signature)).toEqual({ outcome: "absent", why: expect.stringMatching(/not this payment's/) });
    expect(await findSolanaPayment(n, sought(unsent), random)).toEqual({ outcome: "absent", why: expect.stringMatching(/has no transaction/) });
    expect(await findSolanaPayment(n, sought(unsent))).toEqual({ outcome: "absent" });
    // Only looked for while it can have landed: a payment valid until ten minutes ago is not this one.
    expect(await findSolanaPayment(n, sought(paid, 2_000n, new Date(Date.now() - 10 * 60_000)), random)).toMatchObject({ outcome: "absent" });

    // What a remote facilitator's success waits for: the transaction that carried the payment, whichever was named.
    expect(await confirmSolanaPayment(n, sought(unsent, 1n), random, 600)).toBeUndefined();
    expect(await confirmSolanaPayment(n, sought(paid), paid.signature, 600)).toBe(paid.signature);
    expect(await confirmSolanaPayment(n, sought(paid), minted, 600)).toBe(paid.signature);

    // A node that does not answer: unknown, never absent.
    await chain.stop();
    expect(await solanaTransferLanded(n, paid.signature, { payTo: shop.address, amount: 2_000n })).toEqual({ outcome: "unknown" });
    expect(await findSolanaPayment(n, sought(paid), paid.signature)).toEqual({ outcome: "unknown" });
    expect(await findSolanaPayment(n, sought(paid))).toEqual({ outcome: "unknown" });
  });
});

import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import {
  address,
  appendTransactionMessageInstructions,
  blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from "@solana/kit";
import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { paidAnswers } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver } from "@/test/db";
import { deleteStalePaidAnswers, earlierAnswer, keepAnswer, PAID_ANSWER_TTL_MS, paidAnswerKey } from "./paid-answers";

let database: Database;
processTestDatabase((d) => (database = d));

const NETWORK = "eip155:84532";
/** A paid call's request: an EIP-3009 payment of `from` (its nonce tells payments apart) that carries `id`. */
const paidCall = (id: string, from: string, nonce: string) =>
  new Request("http://shop.test/x402/gift-cards/search", {
    headers: {
      "PAYMENT-SIGNATURE": Buffer.from(
        JSON.stringify({
          x402Version: 2,
          accepted: { scheme: "exact", network: NETWORK, amount: "2000" },
          payload: { signature: "0xabc", authorization: { from, nonce } },
          extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id } } },
        }),
      ).toString("base64"),
    },
  });
const keyOf = (req: Request) => paidAnswerKey(req, "giftCardSearch")!;
const headers = (extra: Record<string, string>) => new Headers(extra);
const answer = (text: string) => Response.json({ text });

const USDC = address("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU");

/** A signed USDC transfer of `owner`'s, as an x402 Solana payment carries it (base64). */
async function solanaTransfer(owner: KeyPairSigner, feePayer: KeyPairSigner): Promise<string> {
  const ata = async (o: string) => (await findAssociatedTokenPda({ owner: address(o), mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const [source, destination] = [await ata(owner.address), await ata((await generateKeyPairSigner()).address)];
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash("11111111111111111111111111111111"), lastValidBlockHeight: 1n }, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferCheckedInstruction({
              source,
              mint: USDC,
              destination,
              authority: owner,
              amount: 2_000n,
              decimals: 6,
            }),
          ],
          m,
        ),
    ),
  );
  return getBase64EncodedWireTransaction(signed);
}

describe(`kept answers of paid calls, on ${testDriver}`, () => {
  it("are each payer's own: another payer's id is no conflict, and each payer gets its own answer again", async () => {
    const alice = privateKeyToAccount(generatePrivateKey()).address;
    const bob = privateKeyToAccount(generatePrivateKey()).address;
    const id = "pay_shared_id_000000001";
    const aliceFirst = keyOf(paidCall(id, alice, "0x01"));
    expect(aliceFirst.payer).toBe(`eip155:${getAddress(alice)}`);
    expect(await earlierAnswer(aliceFirst, headers)).toBeUndefined();
    await keepAnswer(aliceFirst, aliceFirst.payer, answer("alice's"));

    // Bob happens on the same id (lower-case, as some clients write addresses): his payment is new, not a 409.
    const bobFirst = keyOf(paidCall(id, bob.toLowerCase(), "0x02"));
    expect(await earlierAnswer(bobFirst, headers)).toBeUndefined();
    await keepAnswer(bobFirst, `eip155:${getAddress(bob)}`, answer("bob's"));

    // Each retry gets its own payer's answer.
    expect(await (await earlierAnswer(keyOf(paidCall(id, alice, "0x01")), headers))!.json()).toEqual({ text: "alice's" });
    expect(await (await earlierAnswer(keyOf(paidCall(id, bob.toLowerCase(), "0x02")), headers))!.json()).toEqual({ text: "bob's" });
    // A payer's own id with another payment is still a conflict, for each of them.
    for (const [from, nonce] of [
      [alice, "0x03"],
      [bob, "0x04"],
    ] as const) {
      await expect(earlierAnswer(keyOf(paidCall(id, from, nonce)), headers)).rejects.toMatchObject({ status: 409, code: "PAYMENT_IDENTIFIER_CONFLICT" });
    }
    const rows = await database.db.select({ payer: paidAnswers.payer }).from(paidAnswers);
    expect(rows.map((r) => r.payer).sort()).toEqual([`eip155:${getAddress(alice)}`, `eip155:${getAddress(bob)}`].sort());
  });

  it("reads a Solana payment's payer as the owner of its token transfer, and a payment that names none as no one", async () => {
    // The transfer's owner signs it; the facilitator pays its fee (and is no payer).
    const [owner, feePayer] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const transaction = await solanaTransfer(owner, feePayer);
    const req = new Request("http://shop.test/x402/gift-cards/search", {
      headers: {
        "PAYMENT-SIGNATURE": Buffer.from(
          JSON.stringify({
            x402Version: 2,
            accepted: { scheme: "exact", network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" },
            payload: { transaction },
            extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id: "pay_solana_id_0000001" } } },
          }),
        ).toString("base64"),
      },
    });
    expect(keyOf(req).payer).toBe(`solana:${owner.address}`);
    expect(keyOf(paidCall("pay_no_payer_00000001", "", "0x05")).payer).toBeNull();
  });

  it("are deleted once older than a day, the newer ones kept", async () => {
    await database.db.delete(paidAnswers);
    const now = Date.now();
    const row = (paymentId: string, age: number) => ({
      paymentId,
      payer: "eip155:0x0000000000000000000000000000000000000001",
      requestHash: "h",
      status: 200,
      body: "{}",
      contentType: "application/json",
      createdAt: new Date(now - age),
    });
    await database.db
      .insert(paidAnswers)
      .values([row("pay_old_0000000001", PAID_ANSWER_TTL_MS + 1000), row("pay_new_0000000001", PAID_ANSWER_TTL_MS - 60_000)]);
    await deleteStalePaidAnswers(database.db, new Date(now));
    expect((await database.db.select({ id: paidAnswers.paymentId }).from(paidAnswers)).map((r) => r.id)).toEqual(["pay_new_0000000001"]);
  });
});

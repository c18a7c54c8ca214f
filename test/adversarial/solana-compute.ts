import {
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  getU32Encoder,
  getU64Encoder,
  signBytes,
  type KeyPairSigner,
  type Transaction,
} from "@solana/kit";
import type { PaymentPayload } from "@x402/core/types";

/**
 * A Solana payer that asks the shop's fee payer for more than an ordinary transfer's fees (test support). The payer
 * builds its payment's transaction and the shop pays its fees, the priority fee included: the compute unit limit the
 * transaction asks times its price per unit. The official x402 client asks 20,000 units at 1 micro-lamport.
 */

/** A compute budget instruction's data: its kind, then the value in little-endian bytes. */
export const computeUnitLimit = (units: number) => new Uint8Array([2, ...getU32Encoder().encode(units)]);
export const computeUnitPrice = (microLamports: bigint) => new Uint8Array([3, ...getU64Encoder().encode(microLamports)]);

/**
 * The payer's payment, as the official client built it, with the compute budget the payer chose instead and signed
 * again by the payer: the client's first two instructions set the unit limit and the unit price.
 */
export async function withComputeBudget(
  payload: PaymentPayload,
  payer: KeyPairSigner,
  budget: { units: number; microLamports: bigint },
): Promise<PaymentPayload> {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode((payload.payload as { transaction: string }).transaction));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  const [limit, price, ...rest] = message.instructions;
  if (!limit || !price) throw new Error("The payment's transaction has no compute budget instructions");
  const instructions = [{ ...limit, data: computeUnitLimit(budget.units) }, { ...price, data: computeUnitPrice(budget.microLamports) }, ...rest];
  const messageBytes = getCompiledTransactionMessageEncoder().encode({ ...message, instructions }) as Transaction["messageBytes"];
  const signature = await signBytes(payer.keyPair.privateKey, messageBytes);
  const signed = getTransactionEncoder().encode({ messageBytes, signatures: { ...tx.signatures, [payer.address]: signature } });
  return { ...payload, payload: { transaction: getBase64Decoder().decode(signed) } };
}

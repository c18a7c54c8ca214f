import { createHash } from "node:crypto";
import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { z } from "zod";

/** How long a Solana blockhash lives (150 slots of 400 ms) plus a margin for a slow cluster. */
export const SOLANA_PAYMENT_LIFETIME_MS = 120_000;
/** An EVM authorization valid longer than the requirement's timeout plus this is refused: its fate would stay open too long. */
export const VALID_BEFORE_SLACK_SECONDS = 60;

/**
 * What makes one x402 payment itself, before it is settled: the same signed payment, offered twice, has the same
 * identity, whatever it is offered for and whichever server sees it.
 * - EVM (EIP-3009): the token, the payer and the authorization's nonce (the token spends each (payer, nonce) once).
 * - Solana: the hash of the transaction's message (what every signature signs; the fee payer's signature, the
 *   transaction id, follows from it).
 */
export type PaymentIdentity = {
  network: string;
  identity: string;
  payer: string | null;
  /** After this the payment can no longer land on chain. */
  validUntil: Date;
  /** EVM: the authorization, for asking the token whether it was used. */
  authorization?: { token: `0x${string}`; from: `0x${string}`; nonce: `0x${string}`; validBefore: bigint };
  /** Solana: the message bytes (base64) and the blockhash the transaction lives by. */
  solana?: { message: string; blockhash: string };
};

const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
/**
 * An EIP-3009 payment as the official client sends it (@x402/evm's createEIP3009Payload: the authorization and its
 * signature) and nothing more. The payload is refused whole when it carries anything else: the x402 library settles a
 * payload that carries a `permit2Authorization` through Permit2 whatever else is in it, so a payment recorded under
 * its authorization's identity would be executed as another one; and a field the shop does not read is one it cannot
 * decide on.
 */
const EvmPayload = z.strictObject({
  signature: Hex,
  authorization: z.strictObject({
    from: Hex.length(42),
    to: Hex.length(42),
    value: z.string(),
    validAfter: z.union([z.string(), z.number()]),
    validBefore: z.union([z.string().regex(/^\d{1,30}$/), z.number().int().nonnegative()]),
    nonce: Hex.length(66),
  }),
});
/** A Solana payment as the official client sends it (@x402/svm's ExactSvmScheme: the partly signed transaction), and nothing more. */
const SvmPayload = z.strictObject({ transaction: z.string().min(1).max(8192) });

export class PaymentIdentityError extends Error {}

/** Why a payload is not a payment of its network's kind: the fields the shop does not take named, else `kind`. */
function refusal(error: z.ZodError, kind: string): PaymentIdentityError {
  const unknown = error.issues.flatMap((i) => (i.code === "unrecognized_keys" ? i.keys.map((k) => [...i.path, k].map(String).join(".")) : []));
  if (unknown.includes("permit2Authorization")) {
    return new PaymentIdentityError("The payment carries a permit2Authorization: the shop takes EIP-3009 authorizations only, with nothing beside them");
  }
  if (unknown.length > 0) return new PaymentIdentityError(`The payment carries fields the shop does not take: ${unknown.join(", ")}`);
  return new PaymentIdentityError(`The payment is not ${kind}`);
}

/**
 * The identity of a payment made for `requirement`. Throws PaymentIdentityError when the payload is not a payment of
 * that network's kind (or carries anything beside it), or (EVM) when its authorization stays valid longer than the
 * shop accepts.
 */
export function paymentIdentity(payload: PaymentPayload, requirement: PaymentRequirements, now = new Date()): PaymentIdentity {
  const network = requirement.network;
  if (network.startsWith("eip155:")) {
    const parsed = EvmPayload.safeParse(payload.payload);
    if (!parsed.success) throw refusal(parsed.error, "an EIP-3009 authorization");
    const a = parsed.data.authorization;
    const validBefore = BigInt(a.validBefore);
    const latest = BigInt(Math.floor(now.getTime() / 1000) + requirement.maxTimeoutSeconds + VALID_BEFORE_SLACK_SECONDS);
    if (validBefore > latest) {
      throw new PaymentIdentityError(
        `The authorization is valid for too long: validBefore may be at most ${requirement.maxTimeoutSeconds + VALID_BEFORE_SLACK_SECONDS} seconds from now`,
      );
    }
    const token = requirement.asset.toLowerCase() as `0x${string}`;
    const from = a.from.toLowerCase() as `0x${string}`;
    const nonce = a.nonce.toLowerCase() as `0x${string}`;
    return {
      network,
      identity: `${token}:${from}:${nonce}`,
      payer: a.from,
      validUntil: new Date(Number(validBefore) * 1000),
      authorization: { token, from, nonce, validBefore },
    };
  }
  if (network.startsWith("solana:")) {
    const parsed = SvmPayload.safeParse(payload.payload);
    if (!parsed.success) throw refusal(parsed.error, "a Solana transaction");
    let messageBytes: Uint8Array;
    let blockhash: string;
    try {
      const tx = getTransactionDecoder().decode(getBase64Encoder().encode(parsed.data.transaction));
      messageBytes = new Uint8Array(tx.messageBytes);
      blockhash = getCompiledTransactionMessageDecoder().decode(messageBytes).lifetimeToken;
    } catch {
      throw new PaymentIdentityError("The payment's transaction cannot be decoded");
    }
    return {
      network,
      identity: createHash("sha256").update(messageBytes).digest("hex"),
      payer: null,
      validUntil: new Date(now.getTime() + SOLANA_PAYMENT_LIFETIME_MS),
      solana: { message: Buffer.from(messageBytes).toString("base64"), blockhash },
    };
  }
  throw new PaymentIdentityError(`No payment identity for network ${network}`);
}

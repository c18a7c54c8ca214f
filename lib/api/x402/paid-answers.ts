import { createHash } from "node:crypto";
import { getBase64Encoder, getTransactionDecoder } from "@solana/kit";
import { extractPaymentIdentifier, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { getTokenPayerFromTransaction } from "@x402/svm";
import type { PaymentPayload } from "@x402/core/types";
import { and, eq, lt } from "drizzle-orm";
import { getDb, type Db } from "@/lib/platform/db";
import { paidAnswers } from "@/lib/platform/db/schema";
import { walletOwnerKey } from "@/lib/identity";
import { ApiError } from "@/lib/platform/http/api-error";
import { paymentHeader } from "./payment-header";

// Idempotent paid retries (x402 `payment-identifier`): a payment that carries an id keeps the answer it bought, so
// that an agent that lost it sends the same payment with the same id again and gets the same answer, never a second
// charge. An id is its payer's own: the same id with another payment of that payer, or on another route, is refused
// with 409; the same id from another payer is another payment, answered on its own.

/**
 * A paid call's identifier, what it was for (the route and the signed payment), and whose payment it says it is
 * (read as the verification reads it: the signer of an EIP-3009 authorization, the owner of a Solana transfer).
 */
export type PaidAnswerKey = { id: string; hash: string; payer: string | null };

/**
 * The key of the call's payment, when its PAYMENT-SIGNATURE carries a payment identifier; undefined otherwise (no
 * payment, no id, or a header that is not a payment: the route refuses that itself). A malformed id is a 400.
 */
export function paidAnswerKey(req: Request, route: string): PaidAnswerKey | undefined {
  const header = paymentHeader(req);
  if (!header) return undefined;
  let payload: PaymentPayload;
  try {
    payload = JSON.parse(Buffer.from(header.trim(), "base64").toString("utf8")) as PaymentPayload;
  } catch {
    return undefined;
  }
  // x402 clients echo the 402's declaration ({info: {required: false}}): only an `id` in it asks for idempotency.
  const declared = payload && typeof payload === "object" ? (payload.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined) : undefined;
  if (declared?.info?.id === undefined) return undefined;
  const id = extractPaymentIdentifier(payload, true);
  if (!id) {
    throw new ApiError(400, "INVALID_PAYMENT", "The payment identifier must be 16 to 128 letters, digits, hyphens or underscores.");
  }
  const hash = createHash("sha256")
    .update(JSON.stringify({ route, accepted: payload.accepted ?? null, payload: payload.payload ?? null }))
    .digest("hex");
  return { id, hash, payer: claimedPayer(payload) };
}

/** Whose payment it says it is, as its owner key; null when the payload names none (it will not verify either). */
function claimedPayer(payload: PaymentPayload): string | null {
  const network = typeof payload.accepted?.network === "string" ? payload.accepted.network : "";
  const inner = payload.payload as { authorization?: { from?: unknown }; transaction?: unknown } | undefined;
  let address: unknown;
  if (network.startsWith("eip155:")) address = inner?.authorization?.from;
  else if (network.startsWith("solana:") && typeof inner?.transaction === "string") {
    try {
      address = getTokenPayerFromTransaction(getTransactionDecoder().decode(getBase64Encoder().encode(inner.transaction)));
    } catch {
      return null;
    }
  }
  return typeof address === "string" && address !== "" ? answerPayer(network, address) : null;
}

/** The owner key an answer is kept under: one spelling of a payer's address on every network of its kind. */
export function answerPayer(network: string, address: string | undefined): string | null {
  return address ? walletOwnerKey({ chainId: network, address }) : null;
}

/**
 * The answer kept for this payment and id, to send again; a 409 for an id its payer used with another payment or
 * route; undefined for an id new to its payer.
 */
export async function earlierAnswer(key: PaidAnswerKey, headers: (extra: Record<string, string>) => Headers): Promise<Response | undefined> {
  const db = await getDb();
  // The same signed payment is the same payer's: it is found by its id and hash alone.
  const [row] = await db
    .select()
    .from(paidAnswers)
    .where(and(eq(paidAnswers.paymentId, key.id), eq(paidAnswers.requestHash, key.hash)))
    .limit(1);
  if (row) {
    const extra: Record<string, string> = { "Content-Type": row.contentType };
    if (row.paymentResponse) extra["PAYMENT-RESPONSE"] = row.paymentResponse;
    return new Response(row.body, { status: row.status, headers: headers(extra) });
  }
  if (!key.payer) return undefined;
  const [used] = await db
    .select({ id: paidAnswers.paymentId })
    .from(paidAnswers)
    .where(and(eq(paidAnswers.paymentId, key.id), eq(paidAnswers.payer, key.payer)));
  if (used) {
    throw new ApiError(409, "PAYMENT_IDENTIFIER_CONFLICT", "This payment identifier was used for another payment or route: use a new id for a new payment.");
  }
  return undefined;
}

/**
 * Keeps a paid call's answer under its key and the payer its payment verified as (the first answer kept wins), and
 * returns the answer. Without a verified payer there is no one to keep it for.
 */
export async function keepAnswer(key: PaidAnswerKey | undefined, payer: string | null, res: Response): Promise<Response> {
  if (!key || !payer) return res;
  const body = await res.clone().text();
  await (
    await getDb()
  )
    .insert(paidAnswers)
    .values({
      paymentId: key.id,
      payer,
      requestHash: key.hash,
      status: res.status,
      body,
      contentType: res.headers.get("content-type") ?? "application/json",
      paymentResponse: res.headers.get("payment-response"),
    })
    .onConflictDoNothing();
  return res;
}

/** How long an answer is kept for a retry with its payment identifier. */
export const PAID_ANSWER_TTL_MS = 24 * 60 * 60 * 1000;

/** Deletes the answers kept longer than PAID_ANSWER_TTL_MS (the upkeep round's housekeeping). */
export async function deleteStalePaidAnswers(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(paidAnswers).where(lt(paidAnswers.createdAt, new Date(now.getTime() - PAID_ANSWER_TTL_MS)));
}

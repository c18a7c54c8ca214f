import { createHash } from "node:crypto";
import { extractPaymentIdentifier, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import type { PaymentPayload } from "@x402/core/types";
import { eq, lt } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db";
import { paidAnswers } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/api-error";
import { paymentHeader } from "./payment-header";

// Idempotent paid retries (x402 `payment-identifier`): a payment that carries an id keeps the answer it bought, so
// that an agent that lost it sends the same payment with the same id again and gets the same answer, never a second
// charge. The same id with another payment, or on another route, is refused with 409.

/** A paid call's identifier and what it was for (the route and the signed payment). */
export type PaidAnswerKey = { id: string; hash: string };

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
  return { id, hash };
}

/** The answer kept for this key, to send again; a 409 for the id with another payment or route; undefined for a new id. */
export async function earlierAnswer(key: PaidAnswerKey, headers: (extra: Record<string, string>) => Headers): Promise<Response | undefined> {
  const [row] = await (await getDb()).select().from(paidAnswers).where(eq(paidAnswers.paymentId, key.id));
  if (!row) return undefined;
  if (row.requestHash !== key.hash) {
    throw new ApiError(409, "PAYMENT_IDENTIFIER_CONFLICT", "This payment identifier was used for another payment or route: use a new id for a new payment.");
  }
  const extra: Record<string, string> = { "Content-Type": row.contentType };
  if (row.paymentResponse) extra["PAYMENT-RESPONSE"] = row.paymentResponse;
  return new Response(row.body, { status: row.status, headers: headers(extra) });
}

/** Keeps a paid call's answer under its key (the first answer kept wins) and returns the answer. */
export async function keepAnswer(key: PaidAnswerKey | undefined, res: Response): Promise<Response> {
  if (!key) return res;
  const body = await res.clone().text();
  await (
    await getDb()
  )
    .insert(paidAnswers)
    .values({
      paymentId: key.id,
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

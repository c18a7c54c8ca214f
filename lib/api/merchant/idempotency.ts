import { createHash } from "node:crypto";
import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import { V2Error } from "./envelope";
import { v2ErrorOf } from "./errors";
import type { Db } from "@/lib/platform/db";
import { DomainError } from "@/lib/platform/errors";
import { idempotencyKeys } from "@/lib/platform/db/schema";

export type StoredAnswer = { status: number; body: unknown };

const KEY = /^[\x21-\x7e]{1,255}$/;
/** A first request still unanswered after this long died with its process: its key is taken over. */
const ABANDONED_MS = 5 * 60_000;

/** What a request does with its key inside its own transactions. */
export type IdempotencyKey = {
  /** Binds the key to the invoice the request made, in the transaction that makes it (see createMerchantInvoice). */
  bindInvoice(tx: Db, invoiceId: string): Promise<void>;
  /**
   * Stores the request's answer in the transaction that makes its invoice and moves its money (an auto_pay debit):
   * replayed from then on, and not written again once that transaction committed.
   */
  storeAnswer(tx: Db, answer: StoredAnswer): Promise<void>;
};

/**
 * Runs a creation request at most once per `Idempotency-Key`: the first answer (2xx or 4xx) is stored and replayed
 * for the same key and the same request; the same key with another method, path or body is refused with 422
 * `idempotency_key_reused`, and while the first request still runs with 409 `idempotency_key_in_use`.
 *
 * The key is bound to the invoice, and the answer stored, in the transaction that makes it and moves the money
 * (`bindInvoice`, `storeAnswer`, with the `auto_pay` debit): nothing is written after the debit, so no failure after
 * it can be answered as if nothing was charged. A failure on our side (5xx, or a thrown error) before that commit keeps
 * nothing, so the request can be retried with the same key; after it, a retry replays the stored answer. A key bound
 * without an answer (a transaction of its own did the payment) is `resume`d by the retry, which answers that invoice
 * (an invoice is paid at most once): a retry never makes or pays a second one.
 */
export async function idempotent(
  db: Db,
  merchantId: string,
  key: string | null,
  request: { method: string; endpoint: string; body: string },
  run: (key: IdempotencyKey) => Promise<StoredAnswer>,
  resume: (invoiceId: string, key: IdempotencyKey) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  if (key === null) return { ...(await run({ bindInvoice: async () => undefined, storeAnswer: async () => undefined })), replayed: false };
  if (!KEY.test(key)) throw new DomainError("invalid_param", "Invalid parameter Idempotency-Key: 1 to 255 printable ASCII characters.");
  const requestHash = createHash("sha256").update(request.body).digest("hex");
  const endpoint = `${request.method} ${request.endpoint}`;
  const thisKey = and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key));

  const insert = () =>
    db.insert(idempotencyKeys).values({ merchantId, key, endpoint, requestHash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
  let inserted = await insert();
  let resumeId: string | null = null;
  if (inserted.length === 0) {
    const [first] = await db.select().from(idempotencyKeys).where(thisKey);
    const abandoned = first !== undefined && first.responseStatus === null && first.createdAt < new Date(Date.now() - ABANDONED_MS);
    if (first && abandoned && !first.invoiceId) {
      // The first request died before it made anything: the key is free again, for whichever request comes.
      const freed = await db
        .delete(idempotencyKeys)
        .where(and(thisKey, isNull(idempotencyKeys.responseStatus), isNull(idempotencyKeys.invoiceId), eq(idempotencyKeys.createdAt, first.createdAt)))
        .returning({ key: idempotencyKeys.key });
      if (freed.length > 0) inserted = await insert();
    } else if (first) {
      if (first.endpoint !== endpoint || first.requestHash !== requestHash) {
        throw new DomainError("idempotency_key_reused", "This Idempotency-Key was used for a different request: use a new key for a new request.");
      }
      if (first.responseStatus !== null) return { status: first.responseStatus, body: first.responseBody, replayed: true };
      if (abandoned) {
        // It made its invoice and then failed: one retry takes it over (the conditional update moves its time).
        const taken = await db
          .update(idempotencyKeys)
          .set({ createdAt: new Date() })
          .where(and(thisKey, isNull(idempotencyKeys.responseStatus), eq(idempotencyKeys.createdAt, first.createdAt)))
          .returning({ invoiceId: idempotencyKeys.invoiceId });
        resumeId = taken[0]?.invoiceId ?? null;
      }
    }
    if (inserted.length === 0 && resumeId === null) {
      throw new DomainError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed: retry shortly.");
    }
  }

  const store = (tx: Db, answer: StoredAnswer) =>
    tx
      .update(idempotencyKeys)
      .set({ responseStatus: answer.status, responseBody: answer.body as object })
      .where(thisKey);
  // Set when the answer went into the run's transaction: once the run returns, that one committed.
  let stored = false;
  const ownKey: IdempotencyKey = {
    bindInvoice: async (tx, invoiceId) => {
      await tx.update(idempotencyKeys).set({ invoiceId }).where(thisKey);
    },
    storeAnswer: async (tx, answer) => {
      await store(tx, answer);
      stored = true;
    },
  };
  let answer: StoredAnswer;
  try {
    answer = resumeId ? await resume(resumeId, ownKey) : await run(ownKey);
  } catch (caught) {
    const err = (caught instanceof DomainError ? v2ErrorOf(caught) : undefined) ?? caught;
    if (err instanceof V2Error && err.status < 500) {
      answer = { status: err.status, body: { meta: { _endpoint: request.endpoint }, error_code: err.code, message: err.message, ...err.details } };
    } else {
      await release();
      throw err;
    }
  }
  if (answer.status >= 500) {
    await release();
    return { ...answer, replayed: false };
  }
  if (!stored) await store(db, answer);
  return { ...answer, replayed: false };

  /** After a failure: a key bound to an invoice is left for the next retry to resume at once; an unbound one is forgotten. */
  async function release() {
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(0) })
      .where(and(thisKey, isNull(idempotencyKeys.responseStatus), isNotNull(idempotencyKeys.invoiceId)));
    await db.delete(idempotencyKeys).where(and(thisKey, isNull(idempotencyKeys.responseStatus), isNull(idempotencyKeys.invoiceId)));
  }
}

/**
 * How long a key is kept: within it a retry replays its answer or completes its invoice; after it the key is free.
 * A week is far past any invoice's lifetime and any client's retries.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes the keys older than IDEMPOTENCY_KEY_TTL_MS (the upkeep round's housekeeping). */
export async function deleteStaleIdempotencyKeys(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)));
}

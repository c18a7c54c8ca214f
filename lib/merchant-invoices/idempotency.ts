import { createHash } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { V2Error } from "@/lib/api-v2/envelope";
import type { Db } from "@/lib/db";
import { idempotencyKeys } from "@/lib/db/schema";

export type StoredAnswer = { status: number; body: unknown };

const KEY = /^[\x21-\x7e]{1,255}$/;
/** A first request still unanswered after this long died with its process: its key is taken over. */
const ABANDONED_MS = 5 * 60_000;

/**
 * Runs a creation request at most once per `Idempotency-Key`: the first answer (2xx or 4xx) is stored and replayed
 * for the same key and the same request; the same key with another method, path or body is refused with 422
 * `idempotency_key_reused`, and while the first request still runs with 409 `idempotency_key_in_use`. A failure on
 * our side (5xx, or a thrown error) keeps nothing, so the request can be retried with the same key.
 */
export async function idempotent(
  db: Db,
  merchantId: string,
  key: string | null,
  request: { method: string; endpoint: string; body: string },
  run: () => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  if (key === null) return { ...(await run()), replayed: false };
  if (!KEY.test(key)) throw new V2Error(400, "invalid_param", "Invalid parameter Idempotency-Key: 1 to 255 printable ASCII characters.");
  const requestHash = createHash("sha256").update(request.body).digest("hex");
  const endpoint = `${request.method} ${request.endpoint}`;

  const insert = () =>
    db.insert(idempotencyKeys).values({ merchantId, key, endpoint, requestHash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
  let inserted = await insert();
  if (inserted.length === 0) {
    const abandoned = await db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.merchantId, merchantId),
          eq(idempotencyKeys.key, key),
          isNull(idempotencyKeys.responseStatus),
          lt(idempotencyKeys.createdAt, new Date(Date.now() - ABANDONED_MS)),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (abandoned.length > 0) inserted = await insert();
  }
  if (inserted.length === 0) {
    const [first] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)));
    if (!first) throw new V2Error(409, "idempotency_key_in_use", "A request with this Idempotency-Key is still being processed: retry shortly.");
    if (first.endpoint !== endpoint || first.requestHash !== requestHash) {
      throw new V2Error(422, "idempotency_key_reused", "This Idempotency-Key was used for a different request: use a new key for a new request.");
    }
    if (first.responseStatus === null) throw new V2Error(409, "idempotency_key_in_use", "A request with this Idempotency-Key is still being processed: retry shortly.");
    return { status: first.responseStatus, body: first.responseBody, replayed: true };
  }

  const forget = () => db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key), isNull(idempotencyKeys.responseStatus)));
  let answer: StoredAnswer;
  try {
    answer = await run();
  } catch (err) {
    if (err instanceof V2Error && err.status < 500) {
      answer = { status: err.status, body: { meta: { _endpoint: request.endpoint }, error_code: err.code, message: err.message, ...err.details } };
    } else {
      await forget();
      throw err;
    }
  }
  if (answer.status >= 500) {
    await forget();
    return { ...answer, replayed: false };
  }
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: answer.status, responseBody: answer.body as object })
    .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)));
  return { ...answer, replayed: false };
}

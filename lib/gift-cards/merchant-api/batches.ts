import { syncFxSource, currencyExponent } from "@/lib/catalog";
import type { Db } from "@/lib/platform/db";
import { batchCards, createBatch, getBatch, issueBatch, listBatches, type Batch } from "@/lib/merchants";
import { formatCardValue } from "@/lib/gift-cards";
import { idPattern } from "@/lib/platform/ids";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { parseJsonText, readText } from "@/lib/platform/http/body";
import { notFound, ok, V2Error, idempotent, type IdempotencyKey, type StoredAnswer, nextPage, readQuery, listGiftCardBatchesQuery } from "@/lib/api/merchant";
import type { MerchantContext } from "@/lib/api/merchant";

const BATCH_ID = idPattern("gcb");
/** The API endpoint a batch purchase is made at, as its idempotency keys record it. */
const BATCHES_ENDPOINT = "/gift-card-batches";

/** A batch as the API shows it (schemas.ts giftCardBatchSchema); with its cards for the one-batch answers. */
export async function batchJson(db: Db, batch: Batch, withCards: boolean) {
  const exp = { exponent: currencyExponent(batch.currency) ?? 2 };
  return {
    id: batch.id,
    status: batch.status,
    quantity: batch.quantity,
    issued: batch.issued,
    value: formatCardValue(batch.valueMinor, exp),
    currency: batch.currency,
    price: Number(batch.priceCents),
    refunded: Number(batch.refundCents ?? 0n),
    created_time: batch.createdAt.toISOString(),
    completed_time: batch.completedAt?.toISOString() ?? null,
    ...(withCards
      ? {
          cards: (await batchCards(db, batch.id)).map((c) => ({
            id: c.id,
            code: c.code,
            currency: c.currency,
            value: formatCardValue(c.value, exp),
            balance: formatCardValue(c.balance, exp),
          })),
        }
      : {}),
  };
}

/**
 * A batch bought under the merchant API's Idempotency-Key rules, for the API's `POST /gift-card-batches` and the
 * dashboard's form alike: `buy` runs once per key and stores its answer in the transaction that takes the price (a
 * retry gets that answer and is never charged twice). The batch the answer names is then issued at once; a replay
 * finds it issued, or finishes what a request that died left. No batch when the answer is a refusal.
 */
export async function idempotentBatchPurchase(
  db: Db,
  merchantId: string,
  key: string | null,
  body: string,
  buy: (key: IdempotencyKey) => Promise<StoredAnswer>,
): Promise<{ answer: StoredAnswer & { replayed: boolean }; batch?: Batch }> {
  const answer = await idempotent(db, merchantId, key, { method: "POST", endpoint: BATCHES_ENDPOINT, body }, buy, () =>
    Promise.reject(new Error("A batch request never binds an invoice")),
  );
  const batchId = (answer.body as { batch_id?: unknown }).batch_id;
  if (typeof batchId !== "string") return { answer };
  const batch = (await issueBatch(db, batchId)) ?? (await getBatch(db, merchantId, batchId));
  if (!batch) throw new Error(`Batch ${batchId} vanished`);
  return { answer, batch };
}

/**
 * `POST /gift-card-batches`: takes the batch's price from the balance and issues its cards before answering (a batch
 * whose issuing fails answers `processing` and is finished by the upkeep). With an `Idempotency-Key` a retry answers the
 * same batch as it is now, and never charges twice.
 */
export async function createBatchHandler(req: Request, ctx: MerchantContext): Promise<Response> {
  const text = await readText(req);
  const { answer, batch } = await idempotentBatchPurchase(ctx.db, ctx.merchant.id, req.headers.get("idempotency-key"), text, async (key) => {
    const body = parseJsonText(text);
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new V2Error(400, "parse_error", "The body must be a JSON object.");
    const fields = body as Record<string, unknown>;
    for (const name of ["quantity", "value", "currency"]) {
      if (fields[name] === undefined) throw new V2Error(400, "missing_param", `Missing required parameter: ${name}`);
    }
    const fx = await syncFxSource(ctx.db);
    const made = await createBatch(ctx.db, ctx.merchant.id, { quantity: fields.quantity, value: fields.value, currency: fields.currency }, fx, (tx, b) =>
      key.storeAnswer(tx, { status: 200, body: { batch_id: b.id } }),
    );
    return { status: 200, body: { batch_id: made.id } };
  });
  if (!batch) return jsonResponse(answer.body, { status: answer.status });
  return jsonResponse(
    { meta: { _endpoint: ctx.endpoint, id: batch.id }, data: await batchJson(ctx.db, batch, true) },
    { status: answer.status, headers: answer.replayed ? { "Idempotent-Replayed": "true" } : undefined },
  );
}

/** `GET /gift-card-batches/{id}`: one of the merchant's batches with its cards and their codes. */
export async function getBatchHandler(_req: Request, ctx: MerchantContext): Promise<Response> {
  const id = ctx.params.id ?? "";
  const batch = BATCH_ID.test(id) ? await getBatch(ctx.db, ctx.merchant.id, id) : undefined;
  if (!batch) throw notFound(`Gift card batch ${id}`);
  return ok(ctx.endpoint, await batchJson(ctx.db, batch, true), { id });
}

/** `GET /gift-card-batches`: the merchant's batches, newest first, without their codes; `meta._next` to older ones. */
export async function listBatchesHandler(req: Request, ctx: MerchantContext): Promise<Response> {
  const url = new URL(req.url);
  const q = readQuery(url, listGiftCardBatchesQuery);
  const rows = await listBatches(ctx.db, ctx.merchant.id, q);
  const last = rows.at(-1);
  const next = rows.length === q.limit && last ? nextPage(url, ctx.apiBase, { after: last.id }) : undefined;
  return ok(ctx.endpoint, await Promise.all(rows.map((b) => batchJson(ctx.db, b, false))), {
    limit: q.limit,
    count: rows.length,
    ...(next ? { _next: next } : {}),
  });
}

"use server";

import { revalidatePath } from "next/cache";
import { syncFxSource } from "@/lib/catalog/fx-store";
import type { BuyBatchState } from "@/lib/dashboard/form-states";
import { BATCH_REQUEST_KEY, buyBatch, newBatchRequestKey } from "@/lib/dashboard/gift-card-batches";
import { getDb } from "@/lib/platform/db";
import { DomainError } from "@/lib/platform/errors";
import { assertSameOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import { idempotentBatchPurchase } from "@/lib/gift-cards/merchant-api/batches";

const GIFT_CARDS_PATH = "/dashboard/gift-cards";

const text = (v: FormDataEntryValue | null, max: number) => (typeof v === "string" ? v.slice(0, max) : "");

type Answer = { batch_id: string } | { error: string; field?: BuyBatchState["field"] };

/**
 * Buys a batch of the shop's gift cards from the balance, priced with the rates the API uses, and issues its cards.
 * The form carries a request key, used as the API's Idempotency-Key: the same submission sent again (a retry after a
 * lost answer) gets the first answer and buys nothing more; every answer hands the form a new key for its next one.
 */
export async function buyBatchAction(_previous: BuyBatchState, form: FormData): Promise<BuyBatchState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const values = { quantity: text(form.get("quantity"), 20), value: text(form.get("value"), 40), currency: text(form.get("currency"), 10) };
  const key = text(form.get("request_key"), 60);
  const requestKey = newBatchRequestKey();
  const db = await getDb();
  const fx = await syncFxSource(db);
  let purchase: Awaited<ReturnType<typeof idempotentBatchPurchase>>;
  try {
    purchase = await idempotentBatchPurchase(db, merchant.id, BATCH_REQUEST_KEY.test(key) ? key : null, JSON.stringify(values), async (k) => {
      const outcome = await buyBatch(db, merchant.id, values, fx, (tx, batch) => k.storeAnswer(tx, { status: 200, body: { batch_id: batch.id } }));
      const body: Answer = outcome.ok ? { batch_id: outcome.batch.id } : { error: outcome.error, ...(outcome.field ? { field: outcome.field } : {}) };
      return { status: outcome.ok ? 200 : 400, body };
    });
  } catch (err) {
    // The same purchase still under way: the form keeps its key, so that sending it again later gets its answer.
    if (err instanceof DomainError && err.code === "idempotency_key_in_use") {
      return { error: "This purchase is still being made: wait a moment, then send it again to see its outcome.", values, requestKey: key };
    }
    if (err instanceof DomainError && err.code === "idempotency_key_reused") {
      return { error: "This purchase was already sent: reload the page to see your batches before buying again.", values, requestKey };
    }
    throw err;
  }
  const { batch } = purchase;
  if (!batch) {
    const refusal = purchase.answer.body as Exclude<Answer, { batch_id: string }>;
    return { error: refusal.error, field: refusal.field, values, requestKey };
  }
  revalidatePath(GIFT_CARDS_PATH);
  const { id, status, quantity, issued } = batch;
  return { bought: { id, status, quantity, issued }, requestKey };
}

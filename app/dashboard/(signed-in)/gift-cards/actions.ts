"use server";

import { revalidatePath } from "next/cache";
import { syncFxSource } from "@/lib/catalog/fx-store";
import type { BuyBatchState } from "@/lib/dashboard/form-states";
import { buyBatch } from "@/lib/dashboard/gift-card-batches";
import { getDb } from "@/lib/db";
import { assertSameOrigin, requireMerchant } from "@/lib/http/dashboard/auth";

const GIFT_CARDS_PATH = "/dashboard/gift-cards";

const text = (v: FormDataEntryValue | null, max: number) => (typeof v === "string" ? v.slice(0, max) : "");

/** Buys a batch of the shop's gift cards from the balance, priced with the rates the API uses, and issues its cards. */
export async function buyBatchAction(_previous: BuyBatchState, form: FormData): Promise<BuyBatchState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const values = { quantity: text(form.get("quantity"), 20), value: text(form.get("value"), 40), currency: text(form.get("currency"), 10) };
  const db = await getDb();
  const outcome = await buyBatch(db, merchant.id, values, await syncFxSource(db));
  if (!outcome.ok) return { error: outcome.error, field: outcome.field, values };
  revalidatePath(GIFT_CARDS_PATH);
  const { id, status, quantity, issued } = outcome.batch;
  return { bought: { id, status, quantity, issued } };
}

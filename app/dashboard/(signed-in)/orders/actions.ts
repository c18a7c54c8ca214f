"use server";

import { z } from "zod";
import type { RevealRedemptionState } from "@/lib/dashboard/form-states";
import { getDb } from "@/lib/platform/db";
import { assertSameOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import { getMerchantRedemption } from "@/lib/dashboard/order-detail";

const revealForm = z.object({ id: z.string().min(1).max(64) });

/** The codes of one of the merchant's delivered orders, on demand: they are not in the order page until asked for. */
export async function revealRedemptionAction(_previous: RevealRedemptionState, form: FormData): Promise<RevealRedemptionState> {
  await assertSameOrigin();
  const { merchant } = await requireMerchant();
  const parsed = revealForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "That is not an order of yours." };
  const redemption = await getMerchantRedemption(await getDb(), merchant.id, parsed.data.id);
  if (!redemption) return { error: "This order has no redemption details: it is not delivered." };
  return { redemption };
}

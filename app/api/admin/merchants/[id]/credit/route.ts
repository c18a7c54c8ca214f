import { z } from "zod";
import { adminRoute, jsonBody, usdAmount } from "@/lib/api/admin/route";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { credit, getMerchant } from "@/lib/merchants";

export const dynamic = "force-dynamic";

const body = z.object({ amount_usd: usdAmount.refine((c) => c > 0n, "must be more than 0"), note: z.string().trim().max(200).optional() });

/** Adds to a merchant's balance: `{merchant_id, balance, currency}` (cents) after the credit. */
export const POST = adminRoute<{ id: string }>(async (req, { db, params }) => {
  const input = body.parse(await jsonBody(req));
  if (!(await getMerchant(db, params.id))) return jsonResponse({ error_code: "not_found", message: `No merchant ${params.id}` }, { status: 404 });
  const entry = await credit(db, { merchantId: params.id, amountCents: input.amount_usd, note: input.note ?? "Admin credit" });
  return jsonResponse({ merchant_id: params.id, balance: Number(entry.balanceAfterCents), currency: "USD" });
});

import { z } from "zod";
import { adminRoute, jsonBody, usdAmount } from "@/lib/api/admin/route";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { createMerchant } from "@/lib/merchants";

export const dynamic = "force-dynamic";

const body = z.object({ name: z.string().trim().min(1, "is required").max(200), credit_usd: usdAmount.optional() });

/** Creates a merchant: `{merchant_id, api_id, api_secret, api_token, webhook_secret}`, the secrets shown this once. */
export const POST = adminRoute(async (req, { db }) => {
  const input = body.parse(await jsonBody(req));
  return jsonResponse(await createMerchant(db, { name: input.name, creditCents: input.credit_usd }), { status: 201 });
});

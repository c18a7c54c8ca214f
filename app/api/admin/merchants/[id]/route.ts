import { z } from "zod";
import { adminRoute, jsonBody } from "@/lib/api/admin/route";
import type { Db } from "@/lib/platform/db";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { balanceOf, getMerchant, setMerchantAccess } from "@/lib/merchants";

export const dynamic = "force-dynamic";

const change = z
  .strictObject({ status: z.enum(["active", "suspended"]).optional(), api_access: z.boolean().optional() })
  .refine((c) => c.status !== undefined || c.api_access !== undefined, "give status and/or api_access");

async function summary(db: Db, id: string): Promise<Response> {
  const m = await getMerchant(db, id);
  if (!m) return jsonResponse({ error_code: "not_found", message: `No merchant ${id}` }, { status: 404 });
  return jsonResponse({
    merchant_id: m.id,
    name: m.name,
    status: m.status,
    api_access: m.apiAccess,
    balance: Number(await balanceOf(db, m.id)),
    currency: "USD",
  });
}

/** A merchant: `{merchant_id, name, status, api_access, balance, currency}`. */
export const GET = adminRoute<{ id: string }>(async (_req, { db, params }) => summary(db, params.id));

/**
 * Suspends or re-activates a merchant (`status`), or takes its API access away or gives it back (`api_access`). Its
 * credentials then answer 403 on the merchant API, and its dashboard sessions end.
 */
export const PATCH = adminRoute<{ id: string }>(async (req, { db, params }) => {
  const input = change.parse(await jsonBody(req));
  const found = await setMerchantAccess(db, params.id, {
    ...(input.status ? { status: input.status } : {}),
    ...(input.api_access !== undefined ? { apiAccess: input.api_access } : {}),
  });
  if (!found) return jsonResponse({ error_code: "not_found", message: `No merchant ${params.id}` }, { status: 404 });
  return summary(db, params.id);
});

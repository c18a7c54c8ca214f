import { confirmFxRates } from "@/lib/catalog/fx-store";
import { adminError, adminRoute, jsonBody } from "@/lib/api/admin/route";
import { fxConfirmRequest } from "@/lib/api/admin/wire";
import { jsonResponse } from "@/lib/platform/http/api-error";

export const dynamic = "force-dynamic";

/**
 * Applies exchange rates held for moving a currency more than FX_MAX_MOVE_PERCENT (`{as_of}`, the day the warning
 * names): every price follows them. Answers `{as_of, currencies}`; 404 `not_held` when no rates of that day are held.
 */
export const POST = adminRoute(async (req, { db }) => {
  const input = fxConfirmRequest.parse(await jsonBody(req));
  const confirmed = await confirmFxRates(db, input.as_of);
  if (!confirmed) return adminError(404, "not_held", `No exchange rates of ${input.as_of} are held.`);
  return jsonResponse({ as_of: confirmed.asOf, currencies: confirmed.currencies });
});

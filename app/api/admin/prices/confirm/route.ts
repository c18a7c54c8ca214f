import { confirmCoinPrice } from "@/lib/catalog/coin-prices";
import { adminError, adminRoute, jsonBody } from "@/lib/api/admin/route";
import { coinPriceConfirmRequest } from "@/lib/api/admin/wire";
import { jsonResponse } from "@/lib/platform/http/api-error";

export const dynamic = "force-dynamic";

/**
 * Applies a coin's price held for moving more than ETH_USD_MAX_MOVE_PERCENT (`{coin: "ETH"}`): new invoices in that
 * coin lock it. Answers `{coin, usd}`; 404 `not_held` when no price of that coin is held.
 */
export const POST = adminRoute(async (req, { db }) => {
  const input = coinPriceConfirmRequest.parse(await jsonBody(req));
  const usd = await confirmCoinPrice(db, input.coin);
  if (!usd) return adminError(404, "not_held", `No ${input.coin} price is held.`);
  return jsonResponse({ coin: input.coin, usd });
});

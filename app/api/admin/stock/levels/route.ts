import { adminRoute } from "@/lib/api/admin/route";
import { stockLevelsQuery, toStockLevelsWire } from "@/lib/api/admin/wire";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { stockLevels } from "@/lib/catalog/stock";

export const dynamic = "force-dynamic";

/** Codes available, reserved and sold per package (`?product_id=SLUG` for one product): `{levels: [...]}`. */
export const GET = adminRoute(async (req, { db }) => {
  const query = stockLevelsQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  return jsonResponse(toStockLevelsWire(await stockLevels(db, query.product_id)));
});

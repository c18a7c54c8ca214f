import { adminRoute, jsonBody } from "@/lib/api/admin/route";
import { IMPORT_BODY_LIMIT, stockImportRequest, toStockImportWire } from "@/lib/api/admin/wire";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { importStock } from "@/lib/catalog/stock";

export const dynamic = "force-dynamic";

/**
 * Adds codes to the stock of one package: `{product_id, package_value, batch, codes: [{code, pin, expiration_date}]}`.
 * Answers `{product_id, package_value, imported, already_stocked}`; 400 `stock_refused` for an unknown product or
 * package, or a product that takes no codes.
 */
export const POST = adminRoute(
  async (req, { db }) => {
    const input = stockImportRequest.parse(await jsonBody(req, IMPORT_BODY_LIMIT));
    const codes = input.codes.map((c) => ({ code: c.code, pin: c.pin, expirationDate: c.expiration_date }));
    return jsonResponse(
      toStockImportWire(await importStock(db, { productId: input.product_id, packageValue: input.package_value, codes, batch: input.batch })),
    );
  },
  { maxBody: IMPORT_BODY_LIMIT },
);

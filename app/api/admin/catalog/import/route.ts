import { adminRoute, jsonBody } from "@/lib/api/admin/route";
import { catalogImportRequest, IMPORT_BODY_LIMIT } from "@/lib/api/admin/wire";
import { importCatalog } from "@/lib/catalog/import";
import { jsonResponse } from "@/lib/platform/http/api-error";

export const dynamic = "force-dynamic";

/**
 * Imports catalog rows (`{rows: [...]}`, products as a catalog file gives them): the valid ones are added or replaced
 * by slug in one transaction, the others reported. Answers `{imported, rejected: [{row, slug, errors}], total}`.
 */
export const POST = adminRoute(
  async (req, { db }) => {
    const input = catalogImportRequest.parse(await jsonBody(req, IMPORT_BODY_LIMIT));
    return jsonResponse(await importCatalog(db, input.rows));
  },
  { maxBody: IMPORT_BODY_LIMIT },
);

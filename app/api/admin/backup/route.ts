import { z } from "zod";
import { adminError, adminRoute, jsonBody } from "@/lib/api/admin/route";

export const dynamic = "force-dynamic";

const body = z.strictObject({});

/**
 * A backup of the embedded database (PGlite) that this server holds, taken while it runs: a gzipped tarball of the
 * data folder, the body of the answer. `npm run admin -- backup FILE` asks for it when a server holds DATA_DIR. On
 * PostgreSQL, 409: pg_dump is the tool.
 */
export const POST = adminRoute(async (req, { database }) => {
  body.parse(await jsonBody(req));
  if (!database.dump) {
    return adminError(
      409,
      "not_embedded",
      'The shop runs on PostgreSQL (DATABASE_URL): back it up with pg_dump -Fc "$DATABASE_URL" > shop.dump, restore with pg_restore.',
    );
  }
  const tarball = await database.dump();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(tarball, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(tarball.size),
      "Content-Disposition": `attachment; filename="storefront-${stamp}.tar.gz"`,
      "Cache-Control": "no-store",
    },
  });
});

import { ok } from "@/lib/api-v2/envelope";
import { listQuery, productPage, readQuery } from "@/lib/api-v2/products";
import { merchantRoute } from "@/lib/api-v2/route";
import { publicOrigin } from "@/lib/http/origin";

export const dynamic = "force-dynamic";

/** The catalog, paged with `start`/`limit` (follow `meta._next`), filtered by `type`, `country`, `category`. */
export const GET = merchantRoute("GET /products", async (req, { db, endpoint }) => {
  const url = new URL(req.url);
  const page = await productPage(db, url, publicOrigin(req), readQuery(url, listQuery));
  return ok(endpoint, page.data, page.meta);
});

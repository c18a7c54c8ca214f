import { okJsonList } from "@/lib/http/merchant/envelope";
import { listQuery, productPage, readQuery, requireSearchText } from "@/lib/http/merchant/products";
import { merchantRoute } from "@/lib/http/merchant/route";
import { publicOrigin } from "@/lib/http/origin";

export const dynamic = "force-dynamic";

/** Text search (`q`, 1-100 characters) over the catalog, paged like `/products`. */
export const GET = merchantRoute("GET /products/search", async (req, { db, endpoint }) => {
  const url = new URL(req.url);
  const q = requireSearchText(url);
  const page = await productPage(db, url, publicOrigin(req), { ...readQuery(url, listQuery), q });
  return okJsonList(endpoint, page.data, page.meta);
});

import { okJsonList } from "@/lib/api/merchant/envelope";
import { listQuery, productPage, readQuery } from "@/lib/api/merchant/products";
import { merchantRoute } from "@/lib/api/merchant/route";
import { publicOrigin } from "@/lib/platform/http/origin";

export const dynamic = "force-dynamic";

/** eSIM products (with their `coverage`), paged like `/products`; `country` matches any covered country. */
export const GET = merchantRoute("GET /products/esims", async (req, { db, endpoint }) => {
  const url = new URL(req.url);
  const page = await productPage(db, url, publicOrigin(req), { ...readQuery(url, listQuery.omit({ type: true })), forceKind: "esim" });
  return okJsonList(endpoint, page.data, page.meta);
});

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

import { getProduct } from "@/lib/catalog";
import { notFound, ok } from "@/lib/api-v2/envelope";
import { merchantProduct } from "@/lib/api-v2/products";
import { merchantRoute } from "@/lib/api-v2/route";
import { publicOrigin } from "@/lib/http/origin";

export const dynamic = "force-dynamic";

/** One eSIM product, with `coverage` and its bundles. */
export const GET = merchantRoute("GET /products/esims/{id}", async (req, { db, endpoint, params }) => {
  const product = await getProduct(params.id ?? "", db);
  if (!product || product.kind !== "esim") throw notFound(`eSIM product ${params.id}`);
  return ok(endpoint, merchantProduct(product, publicOrigin(req)), { id: product.slug });
});

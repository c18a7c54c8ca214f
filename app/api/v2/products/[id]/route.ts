import { getProduct } from "@/lib/catalog";
import { notFound, ok } from "@/lib/api/merchant/envelope";
import { merchantProduct } from "@/lib/api/merchant/products";
import { merchantRoute } from "@/lib/api/merchant/route";
import { publicOrigin } from "@/lib/platform/http/origin";

export const dynamic = "force-dynamic";

/** One product with its packages (test products too: they are bought by id). */
export const GET = merchantRoute("GET /products/{id}", async (req, { db, endpoint, params }) => {
  const product = await getProduct(params.id ?? "", db);
  if (!product) throw notFound(`Product ${params.id}`);
  return ok(endpoint, merchantProduct(product, publicOrigin(req)), { id: product.slug });
});

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

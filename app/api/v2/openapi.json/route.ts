import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { v2OpenApiDocument } from "@/lib/openapi/v2";
import { MERCHANT_GUARD } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

/**
 * The merchant API's OpenAPI 3.1 document. Public: no credentials needed to read how to call the API (a request the
 * edge refuses is refused as on the API's other routes, counted).
 */
export const GET = guardedRoute(
  async (req: Request): Promise<Response> =>
    Response.json(v2OpenApiDocument(publicOrigin(req)), {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    }),
  MERCHANT_GUARD,
);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

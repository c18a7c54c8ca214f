import { jsonResponse } from "@/lib/platform/http/api-error";
import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { x402Preflight } from "@/lib/api/x402/with-x402-fee";
import { x402OpenApiDocument } from "@/lib/openapi/x402";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document of the /x402 API: free, cacheable for five minutes, readable from any origin. */
export const GET = guardedRoute(async (req: Request): Promise<Response> =>
  jsonResponse(x402OpenApiDocument(publicOrigin(req)), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  }),
);

export const OPTIONS = x402Preflight;

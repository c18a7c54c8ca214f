import { publicOrigin } from "@/lib/platform/http/origin";
import { withRequestLog } from "@/lib/platform/http/request-log";
import { v2OpenApiDocument } from "@/lib/openapi/v2";

export const dynamic = "force-dynamic";

/** The merchant API's OpenAPI 3.1 document. Public: no credentials needed to read how to call the API. */
export const GET = withRequestLog(async (req: Request): Promise<Response> =>
  Response.json(v2OpenApiDocument(publicOrigin(req)), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  }),
);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

import { publicOrigin } from "@/lib/http/origin";
import { v2OpenApiDocument } from "@/lib/openapi/v2";

export const dynamic = "force-dynamic";

/** The merchant API's OpenAPI 3.1 document. Public: no credentials needed to read how to call the API. */
export function GET(req: Request): Response {
  return Response.json(v2OpenApiDocument(publicOrigin(req)), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}

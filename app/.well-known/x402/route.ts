import { jsonResponse } from "@/lib/platform/http/api-error";
import { publicOrigin } from "@/lib/platform/http/origin";
import { wellKnownX402 } from "@/lib/api/x402/discovery";

export const dynamic = "force-dynamic";

/** The paid resources of this shop for x402 discovery crawlers (lib/api/x402/discovery.ts). Free. */
export function GET(req: Request) {
  return jsonResponse(wellKnownX402(publicOrigin(req)), { headers: { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" } });
}

import { jsonResponse } from "@/lib/platform/http/api-error";
import { publicOrigin } from "@/lib/platform/http/origin";
import { wellKnownX402 } from "@/lib/api/x402/discovery";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

/** The paid resources of this shop for x402 discovery crawlers (lib/api/x402/discovery.ts). Free. */
export const GET = guardedRoute((req: Request) =>
  jsonResponse(wellKnownX402(publicOrigin(req)), { headers: { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" } }),
);

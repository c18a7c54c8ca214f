import { jsonResponse } from "@/lib/platform/http/api-error";
import { merchantRoute } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

/** `pong` in both shapes existing clients read: top-level `message` and `data.message`. */
const pong = async (_req: Request, { endpoint }: { endpoint: string }) =>
  jsonResponse({ meta: { _endpoint: endpoint }, message: "pong", data: { message: "pong" } });

/**
 * A liveness check without credentials (a client's health check sends none), counted per client address against the
 * ping's limit; with credentials, they are checked as on every route (a wrong key is 401).
 */
export const GET = merchantRoute("GET /ping", pong, { withoutCredentials: pong });

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

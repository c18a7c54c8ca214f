import { jsonResponse } from "@/lib/platform/http/api-error";
import { merchantRoute } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

/** `pong` in both shapes existing clients read: top-level `message` and `data.message`. */
export const GET = merchantRoute("GET /ping", async (_req, { endpoint }) =>
  jsonResponse({ meta: { _endpoint: endpoint }, message: "pong", data: { message: "pong" } }),
);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

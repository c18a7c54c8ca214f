import { jsonResponse } from "@/lib/http/api-error";
import { merchantRoute } from "@/lib/http/merchant/route";

export const dynamic = "force-dynamic";

/** `pong` in both shapes existing clients read: top-level `message` and `data.message`. */
export const GET = merchantRoute("GET /ping", async (_req, { endpoint }) =>
  jsonResponse({ meta: { _endpoint: endpoint }, message: "pong", data: { message: "pong" } }),
);

import { jsonResponse } from "@/lib/platform/http/api-error";
import { renderMetrics } from "@/lib/platform/metrics";
import { isAdmin } from "@/lib/merchants/admin-token";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

/**
 * Prometheus metrics (text format): queue depths, invoices by status and paid, settlement latency, webhook attempts
 * and failures, and the process's own. Protected like the admin API: `Authorization: Bearer <ADMIN_TOKEN>`
 * (a Prometheus scrape job's `authorization: { credentials: … }`).
 */
export const GET = guardedRoute(async (req: Request) => {
  if (!isAdmin(req.headers.get("authorization"))) {
    return jsonResponse(
      { error_code: "unauthorized", message: "Admin token missing or wrong (Authorization: Bearer <ADMIN_TOKEN>)." },
      { status: 401, headers: { "WWW-Authenticate": "Bearer" } },
    );
  }
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});

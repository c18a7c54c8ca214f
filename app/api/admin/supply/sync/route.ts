import { adminError, adminRoute } from "@/lib/api/admin/route";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { syncUpstreamNow } from "@/lib/supply";

export const dynamic = "force-dynamic";

/**
 * Syncs the upstream supplier's catalog now (UPSTREAM_API_URL): `{status, pages, imported, rejected, gone, resume_at,
 * error}`. `paused`: the upstream's rate limit or quota holds it until `resume_at` (the upkeep goes on from there);
 * `partial`: the rest follows on the upkeep. 409 `no_upstream` when none is configured.
 */
export const POST = adminRoute(async (_req, { db }) => {
  const report = await syncUpstreamNow(db);
  if (!report) return adminError(409, "no_upstream", "No upstream supplier is configured (UPSTREAM_API_URL).");
  return jsonResponse(report);
});

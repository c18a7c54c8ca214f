import { z } from "zod";
import { config } from "@/lib/platform/config";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { isAdmin } from "@/lib/merchants/admin-token";
import { publicReadiness, recentReadiness } from "@/lib/server/health";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

const query = z.object({ ready: z.enum(["1", "true"]).optional() });

/**
 * Liveness (no credentials, no fee, touches nothing): 200 while the process serves. With `?ready=1`, readiness: the
 * database, its migrations, the chains of the mode and the background loops; 503 when one fails. Anyone reads which
 * checks pass, by name; with the admin token (`Authorization: Bearer <ADMIN_TOKEN>`) also what each found, the
 * problems in sentences, the gas wallets' balances with a warning for each that runs low, and the upstream supplier's
 * balance and held orders. Checked at most every few seconds, whoever asks (READINESS_TTL_MS).
 */
export const GET = guardedRoute(async (req: Request) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  const headers = { "Cache-Control": "no-store" };
  const base = { mode: config().networkMode, uptime_s: Math.round(process.uptime()) };
  if (!parsed.success || !parsed.data.ready) return jsonResponse({ status: "ok", ...base }, { headers });
  const authorization = req.headers.get("authorization");
  // A wrong token is refused rather than answered as anyone: the operator sees the mistake.
  if (authorization !== null && !isAdmin(authorization)) {
    return jsonResponse(
      { error_code: "unauthorized", message: "Admin token wrong (Authorization: Bearer <ADMIN_TOKEN>); ask without it for the public answer." },
      { status: 401, headers: { ...headers, "WWW-Authenticate": "Bearer" } },
    );
  }
  const r = await recentReadiness();
  const status = { status: r.ready ? "ready" : "unready", ...base };
  const body =
    authorization === null
      ? { ...status, ...publicReadiness(r) }
      : {
          ...status,
          problems: r.problems,
          warnings: r.warnings,
          checks: r.checks,
          gas_wallets: r.gas,
          ...(r.upstream ? { upstream: r.upstream } : {}),
        };
  return jsonResponse(body, { status: r.ready ? 200 : 503, headers });
});

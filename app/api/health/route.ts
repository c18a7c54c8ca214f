import { z } from "zod";
import { config } from "@/lib/config";
import { jsonResponse } from "@/lib/http/api-error";
import { readiness } from "@/lib/server/health";

export const dynamic = "force-dynamic";

const query = z.object({ ready: z.enum(["1", "true"]).optional() });

/**
 * Liveness (no credentials, no fee, touches nothing): 200 while the process serves. With `?ready=1`, readiness: the
 * database, its migrations, the chains of the mode and the background loops; 503 naming each problem. It also shows the
 * gas wallets' balances, with a warning for each that runs low, and the upstream supplier's balance and held orders.
 */
export async function GET(req: Request) {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  const headers = { "Cache-Control": "no-store" };
  const base = { mode: config().networkMode, uptime_s: Math.round(process.uptime()) };
  if (!parsed.success || !parsed.data.ready) return jsonResponse({ status: "ok", ...base }, { headers });
  const r = await readiness();
  return jsonResponse(
    {
      status: r.ready ? "ready" : "unready",
      ...base,
      problems: r.problems,
      warnings: r.warnings,
      checks: r.checks,
      gas_wallets: r.gas,
      ...(r.upstream ? { upstream: r.upstream } : {}),
    },
    { status: r.ready ? 200 : 503, headers },
  );
}

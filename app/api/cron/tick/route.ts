import { timingSafeEqual } from "node:crypto";
import { config } from "@/lib/platform/config";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { runRound } from "@/lib/server/round";

export const dynamic = "force-dynamic";
// A round stops taking work after 50 s; a Vercel function may run 60.
export const maxDuration = 60;

function authorized(header: string | null, secret: string): boolean {
  const expected = Buffer.from(`Bearer ${secret}`);
  const given = Buffer.from(header ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * One bounded round of every background job (payment upkeep, fulfilment, refunds, webhooks), as Vercel Cron calls
 * it: `Authorization: Bearer $CRON_SECRET`. Answers what the round did. Off (404) without CRON_SECRET.
 */
export const GET = guardedRoute(async (req: Request) => {
  const secret = config().cronSecret;
  if (!secret) return jsonResponse({ error_code: "not_found", message: "The cron route is off: set CRON_SECRET to enable it." }, { status: 404 });
  if (!authorized(req.headers.get("authorization"), secret)) {
    return jsonResponse(
      { error_code: "unauthorized", message: "Authorization: Bearer <CRON_SECRET> is missing or wrong." },
      { status: 401, headers: { "WWW-Authenticate": "Bearer" } },
    );
  }
  return jsonResponse({ round: await runRound({ budgetMs: 50_000 }) }, { headers: { "Cache-Control": "no-store" } });
});

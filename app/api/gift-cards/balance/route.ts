import { z } from "zod";
import { getDb } from "@/lib/platform/db";
import { cardStatement } from "@/lib/gift-cards";
import { ApiError, invalidParams, jsonResponse } from "@/lib/platform/http/api-error";
import { x402Json } from "@/lib/platform/http/body";
import { countedGuess, isWrongCode } from "@/lib/gift-cards/guess";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { databaseUnavailable } from "@/lib/platform/http/unavailable";
import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { clientIp, RateLimitedError } from "@/lib/api/x402/x402-limits";
import { log } from "@/lib/platform/log";

export const dynamic = "force-dynamic";

const body = z.object({ code: z.string({ error: "is required" }).min(1, "is required").max(64, "is not a gift card code") });

/**
 * A gift card's balance and history, for whoever holds its code: `{code}` in the body (never in a URL, which logs
 * keep). 200 `{currency, value, balance, held, history}`; 400 `INVALID_PARAMETER` for a body without a code; 404
 * `INVALID_GIFT_CARD` for a code that names no card; 429 `RATE_LIMITED` (with Retry-After) after too many wrong codes
 * from one address. Never cached.
 */
export const POST = guardedRoute(async (req: Request): Promise<Response> => {
  const headers = { "Cache-Control": "no-store" };
  try {
    const parsed = body.safeParse(await x402Json(req, 'The body must be JSON: {"code": "XXXX-XXXX-XXXX-XXXX-XXXX"}'));
    if (!parsed.success) throw invalidParams(parsed.error.issues);
    const db = await getDb();
    const statement = await countedGuess(
      { ip: clientIp(req) },
      () => cardStatement(db, parsed.data.code),
      (d) => new RateLimitedError(d),
    );
    return jsonResponse(statement, { headers });
  } catch (err) {
    if (isWrongCode(err)) return new ApiError(404, "INVALID_GIFT_CARD", "No gift card has this code.").toResponse(headers);
    if (err instanceof ApiError) return err.toResponse(headers);
    if (isDatabaseUnavailable(err)) return databaseUnavailable().toResponse(headers);
    log.error({ err }, "gift card balance failed");
    return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. Try again.").toResponse(headers);
  }
});

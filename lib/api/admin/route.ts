import { z } from "zod";
import { getDatabase, type Database, type Db } from "@/lib/platform/db";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { BodyError, readJson } from "@/lib/platform/http/body";
import { MAX_BODY_BYTES } from "@/lib/platform/http/edge-guard";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { isAdmin } from "@/lib/merchants";
import { log } from "@/lib/platform/log";
import { DomainError } from "@/lib/platform/errors";
import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { databaseUnavailableResponse } from "@/lib/platform/http/unavailable";
import { adminErrorOf } from "./errors";

/** A USD amount as the operator types it (`100`, `12.5`), to integer cents; at most 1,000,000 USD at once. */
export const usdAmount = z
  .union([z.number(), z.string()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,7}(\.\d{1,2})?$/.test(v), "must be a USD amount like 100 or 12.50")
  .transform((v) => {
    const [whole, frac = ""] = v.split(".");
    return BigInt(whole!) * 100n + BigInt(frac.padEnd(2, "0"));
  })
  .refine((c) => c <= 100_000_000n, "must be at most 1000000");

export const adminError = (status: number, code: string, message: string) => jsonResponse({ error_code: code, message }, { status });

/**
 * An operator route: `Authorization: Bearer <ADMIN_TOKEN>`, JSON in and out, errors as `{error_code, message}`. The
 * handler gets the process's database (`database`, for what only its driver can do) and its query interface (`db`).
 * What the edge refuses is refused first, as on every route (a body declared larger than `maxBody`: 413).
 */
export function adminRoute<P extends Record<string, string>>(
  handler: (req: Request, ctx: { db: Db; database: Database; params: P }) => Promise<Response>,
  { maxBody }: { maxBody?: number } = {},
) {
  return guardedRoute(
    async (req: Request, next: { params: Promise<P> }): Promise<Response> => {
      if (!isAdmin(req.headers.get("authorization")))
        return adminError(401, "unauthorized", "Admin token missing or wrong (Authorization: Bearer <ADMIN_TOKEN>).");
      try {
        const database = await getDatabase();
        return await handler(req, { db: database.db, database, params: await next.params });
      } catch (err) {
        if (err instanceof z.ZodError) {
          const issue = err.issues[0];
          return adminError(400, "invalid_param", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
        }
        if (err instanceof BodyError) return adminError(err.status, err.status === 413 ? "payload_too_large" : "parse_error", err.message);
        const refusal = err instanceof DomainError ? adminErrorOf(err) : undefined;
        if (refusal) return adminError(refusal.status, refusal.code, refusal.message);
        if (isDatabaseUnavailable(err)) return databaseUnavailableResponse();
        log.error({ err, path: new URL(req.url).pathname }, "admin request failed");
        return adminError(500, "internal_error", "Something went wrong.");
      }
    },
    { maxBody },
  );
}

/** The JSON body of an operator request (`{}` when empty), read up to `limit` bytes with the shop's rules (lib/platform/http/body.ts). */
export async function jsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  return (await readJson(req, limit)) ?? {};
}

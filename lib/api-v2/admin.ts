import { z } from "zod";
import { getDatabase, type Database, type Db } from "@/lib/db";
import { jsonResponse } from "@/lib/http/api-error";
import { isAdmin } from "@/lib/merchants/admin-token";

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

/** The largest body an admin route reads unless it says otherwise. */
export const ADMIN_BODY_LIMIT = 64 * 1024;

/** Thrown by `jsonBody` when a body is over its limit: the route answers 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body is over ${limit} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * An operator route: `Authorization: Bearer <ADMIN_TOKEN>`, JSON in and out, errors as `{error_code, message}`. The
 * handler gets the process's database (`database`, for what only its driver can do) and its query interface (`db`).
 */
export function adminRoute<P extends Record<string, string>>(handler: (req: Request, ctx: { db: Db; database: Database; params: P }) => Promise<Response>) {
  return async (req: Request, next: { params: Promise<P> }): Promise<Response> => {
    if (!isAdmin(req.headers.get("authorization"))) return adminError(401, "unauthorized", "Admin token missing or wrong (Authorization: Bearer <ADMIN_TOKEN>).");
    try {
      const database = await getDatabase();
      return await handler(req, { db: database.db, database, params: await next.params });
    } catch (err) {
      if (err instanceof BodyTooLargeError) return adminError(413, "payload_too_large", err.message);
      if (err instanceof z.ZodError) {
        const issue = err.issues[0];
        return adminError(400, "invalid_param", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
      }
      if (err instanceof SyntaxError) return adminError(400, "parse_error", "The body is not valid JSON.");
      console.error("[api/admin] failed", err);
      return adminError(500, "internal_error", "Something went wrong.");
    }
  };
}

/** The request's JSON body (`{}` when empty), read up to `limit` bytes: a longer one is refused unread (413). */
export async function jsonBody(req: Request, limit = ADMIN_BODY_LIMIT): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "");
  if (declared > limit) throw new BodyTooLargeError(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new BodyTooLargeError(limit);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text.trim() === "" ? {} : (JSON.parse(text) as unknown);
}

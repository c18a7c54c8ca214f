import type { z } from "zod";
import { queryRefusal } from "./query";

/**
 * The one error of the /x402 API: an HTTP status, a stable machine code and a message for people.
 * Body shape, for every error but a 402: `{ "code": "MISSING_FIELD", "message": "...", ...details }`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Headers the answer carries besides the caller's (a PAYMENT-RESPONSE, a Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  toResponse(headers?: HeadersInit): Response {
    const all = new Headers(headers);
    for (const [k, v] of Object.entries(this.headers)) all.set(k, v);
    return jsonResponse({ code: this.code, message: this.message, ...this.details }, { status: this.status, headers: all });
  }
}

/** JSON with bigint written as a decimal string (money is bigint in this codebase). */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(
    JSON.stringify(body, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
    { ...init, headers },
  );
}

/** Turns a zod error into a 400 that names the field. */
export function invalidParams(issues: { path: PropertyKey[]; message: string }[], code = "INVALID_PARAMETER"): ApiError {
  const first = issues[0];
  const field = first?.path.map(String).join(".") || undefined;
  return new ApiError(400, code, field ? `${field}: ${first?.message}` : (first?.message ?? "Invalid request"), field ? { field } : {});
}

/** A query string that `schema` refuses, as the 400 that names the parameter and its rule (lib/platform/http/query.ts). */
export function invalidQuery(schema: z.ZodObject, issues: { path: PropertyKey[]; message: string }[]): ApiError {
  const { param, rule } = queryRefusal(schema, issues);
  return new ApiError(400, "INVALID_PARAMETER", `${param}: ${rule}`, { field: param });
}

import { jsonResponse } from "@/lib/platform/http/api-error";

/**
 * The merchant API's envelope, as its existing clients read it.
 * Success: `{"meta": {"_endpoint": "/products", …paging}, "data": …}`.
 * Error: `{"meta": {"_endpoint": …}, "error_code": "missing_param", "message": "…"}`.
 */
export function ok(endpoint: string, data: unknown, meta: Record<string, unknown> = {}, init: ResponseInit = {}): Response {
  return jsonResponse({ meta: { _endpoint: endpoint, ...meta }, data }, init);
}

/**
 * `ok` for a list whose items are JSON text already (the product lists: see merchantProductJson): the same body,
 * `{"meta":…,"data":[…]}`, without serializing the items again.
 */
export function okJsonList(endpoint: string, items: string[], meta: Record<string, unknown> = {}, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(`{"meta":${JSON.stringify({ _endpoint: endpoint, ...meta })},"data":[${items.join(",")}]}`, { ...init, headers });
}

/** An error of the merchant API: HTTP status, the spec's `error_code`, a message for people. */
export class V2Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "V2Error";
  }

  toResponse(endpoint: string, headers?: HeadersInit): Response {
    return jsonResponse({ meta: { _endpoint: endpoint }, error_code: this.code, message: this.message, ...this.details }, { status: this.status, headers });
  }
}

export const missingParam = (name: string) => new V2Error(400, "missing_param", `Missing required parameter: ${name}`);
export const invalidParam = (name: string, why: string) => new V2Error(400, "invalid_param", `Invalid parameter ${name}: ${why}`);
export const notFound = (what: string) => new V2Error(404, "not_found", `${what} not found`);

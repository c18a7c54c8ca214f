import { assertDocumentedV2 } from "@/lib/openapi/v2";

/**
 * Calls a route handler as Next.js would, with a Request on the shop's origin. For tests. Every answer of an /api/v2
 * route must be one its OpenAPI document describes (status, error code, every field): else the call throws.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's params shape
type RouteHandler = (req: Request, ctx: { params: Promise<any> }) => Promise<Response>;

export const TEST_ORIGIN = "http://shop.test";

export async function callRoute(
  handler: RouteHandler,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; params?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> & { meta?: Record<string, unknown>; data?: unknown } }> {
  const body = init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  const req = new Request(`${TEST_ORIGIN}${path}`, {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...init.headers },
    body,
  });
  const res = await handler(req, { params: Promise.resolve(init.params ?? {}) });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as never) : ({} as never);
  if (path.startsWith("/api/v2/")) assertDocumentedV2(req.method, path, res.status, json);
  return { status: res.status, headers: res.headers, body: json };
}

export const basicAuth = (id: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });
export const bearerAuth = (token: string) => ({ Authorization: `Bearer ${token}` });

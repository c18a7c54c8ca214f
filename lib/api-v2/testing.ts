/** Calls a route handler as Next.js would, with a Request on the shop's origin. For tests. */
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
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as never) : ({} as never) };
}

export const basicAuth = (id: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });
export const bearerAuth = (token: string) => ({ Authorization: `Bearer ${token}` });

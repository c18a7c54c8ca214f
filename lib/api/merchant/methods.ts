import { MERCHANT_LIMITS } from "@/lib/platform/ratelimit/policies";

/** The methods a route file may export; each route file under app/api/v2 exports all of them, those its path does not take as merchantFallback. */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Every "METHOD path" of /api/v2 (paths below the prefix, `{id}` for a parameter): the limited routes and the document. */
const ROUTES = [...Object.keys(MERCHANT_LIMITS), "GET /openapi.json"].map((route) => {
  const [method, path] = route.split(" ") as [string, string];
  return { method, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`) };
});

/** The methods a path below /api/v2 takes ("/invoices/inv_1/pay" -> ["POST"]); empty for a path that is no route. */
export function allowedMethods(endpoint: string): string[] {
  const path = endpoint.length > 1 ? endpoint.replace(/\/+$/, "") : endpoint;
  return [...new Set(ROUTES.filter((r) => r.pattern.test(path)).map((r) => r.method))].sort();
}

/** The `Allow` of a path that takes `allowed`: those, HEAD where GET is, and OPTIONS. */
export function allowHeader(allowed: readonly string[]): string {
  return [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

/**
 * Where the proxy sends a request under /api/v2 that it refuses before routing (a path that is not valid UTF-8 or
 * holds a NUL byte: 400; a body declared too large: 413), so that the API's refusal route answers it counted and with
 * the limit's fields (lib/api/merchant/route.ts, merchantRefusalRoute). The refused path and query travel in the
 * `url` parameter, percent-encoded: public data, which the route checks again as the proxy did.
 */
export const EDGE_REFUSAL_PATH = "/edge-refusal";
export const EDGE_REFUSAL_QUERY = "url";

/** The refusal route's path and query for a refused request's raw path and query (`/api/v2/ping%FF`). */
export function edgeRefusalUrl(pathAndQuery: string): string {
  return `/api/v2${EDGE_REFUSAL_PATH}?${EDGE_REFUSAL_QUERY}=${encodeURIComponent(pathAndQuery)}`;
}

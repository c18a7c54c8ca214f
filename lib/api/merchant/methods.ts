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
 * holds a NUL byte: 400; a body declared too large: 413), so that the API's catch-all answers it counted and with the
 * limit's fields; the status and the message travel in these request headers, which the proxy strips from every
 * other request.
 */
export const EDGE_REFUSAL_PATH = "/edge-refusal";
export const EDGE_REFUSAL_HEADER = "x-storefront-edge-refusal";
export const EDGE_REFUSAL_MESSAGE_HEADER = "x-storefront-edge-refusal-message";

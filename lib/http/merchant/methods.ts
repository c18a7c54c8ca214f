import { MERCHANT_LIMITS } from "@/lib/ratelimit/policies";

/** Where the proxy sends a request whose method a merchant API path does not take (see proxy.ts): the catch-all answers it. */
export const METHOD_NOT_ALLOWED_PREFIX = "/_method-not-allowed";

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

/** Whether a request with `method` reaches a handler of a route that takes `allowed` (HEAD and OPTIONS Next.js answers itself). */
export function methodAllowed(method: string, allowed: readonly string[]): boolean {
  return allowed.includes(method) || method === "OPTIONS" || (method === "HEAD" && allowed.includes("GET"));
}

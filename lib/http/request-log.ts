import { withLogContext } from "@/lib/log";
import { REQUEST_ID_HEADER } from "./edge-guard";

/**
 * A route handler whose log lines carry the request's id (`X-Request-Id`, given by the client or made by the proxy),
 * whichever wrapper or domain code writes them.
 */
export function withRequestLog<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>) {
  return (req: Request, ...rest: A): Promise<Response> =>
    withLogContext({ request_id: req.headers.get(REQUEST_ID_HEADER) ?? undefined }, () => handler(req, ...rest));
}

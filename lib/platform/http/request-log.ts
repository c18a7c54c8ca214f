import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { log, withLogContext } from "@/lib/platform/log";
import { REQUEST_ID_HEADER, requestId } from "./edge-guard";
import { databaseUnavailableResponse } from "./unavailable";

/**
 * A route handler whose log lines carry the request's id (`X-Request-Id`: the caller's own when it is a plain token,
 * else the one the proxy made, else one made here for the routes the proxy does not see), and whose answer carries it.
 * A handler that throws because the database is unreachable is answered 503 with Retry-After (the APIs' own wrappers
 * answer it in their shapes first); any other error goes on to Next.js.
 */
export function withRequestLog<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>) {
  return (req: Request, ...rest: A): Promise<Response> => {
    const id = requestId(req.headers.get(REQUEST_ID_HEADER));
    return withLogContext({ request_id: id }, async () => {
      try {
        return stamped(await handler(req, ...rest), id);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        log.warn({ err, path: new URL(req.url).pathname }, "request met the database unavailable");
        return stamped(databaseUnavailableResponse({ "Cache-Control": "no-store" }), id);
      }
    });
  };
}

/** The answer with the request's id; an answer whose headers cannot change (a fetched one) is copied. */
function stamped(res: Response, id: string): Response {
  try {
    res.headers.set(REQUEST_ID_HEADER, id);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set(REQUEST_ID_HEADER, id);
    return copy;
  }
}

import { isDatabaseUnavailable } from "@/lib/platform/db/unavailable";
import { log, withLogContext } from "@/lib/platform/log";
import { edgeError, REQUEST_ID_HEADER, requestId, requestProblem, type RequestProblem } from "./edge-guard";
import { databaseUnavailableResponse } from "./unavailable";

/** How a route answers a request the edge refuses (lib/platform/http/edge-guard.ts), when not with `edgeError`. */
export type GuardOptions = {
  /**
   * The answer to a request with a problem: the merchant API's, which counts it against the client's address and adds
   * the limit's fields as on every answer of that API. Without it, `edgeError` in the shape of the API at the path.
   */
  refuse?: (req: Request, problem: RequestProblem) => Promise<Response>;
  /** The largest body the route takes, where it is larger than MAX_BODY_BYTES (the operator's imports). */
  maxBody?: number;
};

/**
 * Every route handler of the shop goes through this, whether the proxy saw its request or not (proxy.ts skips the two
 * APIs' plain paths), so that every route refuses a bad request the same way:
 *
 * - the request gets its id (`X-Request-Id`: the caller's own when it is a plain token, else the one the proxy made,
 *   else one made here); the log lines of the handler carry it, and so does the answer;
 * - before the handler, what the edge refuses (`requestProblem`: a path or query that is not valid UTF-8 or holds a
 *   NUL byte, 400; a body declared larger than MAX_BODY_BYTES or the route's `maxBody`, 413) is answered with `edgeError` in the shape of the
 *   API at the request's path, or with the route's own `refuse`;
 * - a handler that throws because the database is unreachable is answered 503 with Retry-After (the APIs' own
 *   wrappers answer it in their shapes first); any other error goes on to Next.js.
 */
export function guardedRoute<A extends unknown[]>(handler: (req: Request, ...rest: A) => Response | Promise<Response>, options: GuardOptions = {}) {
  return (req: Request, ...rest: A): Promise<Response> => {
    const id = requestId(req.headers.get(REQUEST_ID_HEADER));
    return withLogContext({ request_id: id }, async () => {
      try {
        const problem = requestProblem(req, { maxBody: options.maxBody });
        if (problem) {
          return stamped(options.refuse ? await options.refuse(req, problem) : edgeError(new URL(req.url).pathname, problem.status, problem.message), id);
        }
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

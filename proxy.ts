import { NextResponse, type NextRequest } from "next/server";
import { edgeError, edgePage, rawPathAndQuery, REQUEST_ID_HEADER, requestId, requestProblem, surfaceOf, wantsHtml } from "@/lib/platform/http/edge-guard";
import { edgeRefusalUrl } from "@/lib/api/merchant/methods";
import { outagePage } from "@/lib/platform/http/outage-page";

const MERCHANT_API = "/api/v2";

/**
 * The edge of the requests that pass here (see `config` below), before routing: a path or query that is not valid
 * UTF-8 or holds a NUL byte is refused with a 400 in the shape of the API it was meant for (a browser asking for a page
 * gets a page that says so, with a search and the way home), and a body declared larger
 * than MAX_BODY_BYTES with a 413 before it is read (a body sent without a length is cut at the same size by the
 * readers in lib/platform/http/body.ts). Every request gets an id (X-Request-Id, the caller's when it sent a sane one): the
 * handlers' logs carry it, and so does the answer.
 *
 * While the database was found unreachable a moment ago, a page is answered 503 with a page that says the shop is
 * briefly unavailable (lib/platform/http/outage-page.ts), rather than rendered to fail.
 *
 * Under /api/v2 those refusals are answered by the API's refusal route (app/api/v2/edge-refusal, merchantRefusalRoute in
 * lib/api/merchant/route.ts), which counts them against the client's address and adds the limit's fields, as on every
 * answer of the merchant API. The rewrite carries nothing but the refused path and query, in the route's public `url`
 * parameter, and the route finds the problem again itself (in the request's own URL, which Next.js hands it after a
 * rewrite, or in `url` when it is called by its own path): a client that calls it so gets the same answer.
 */
export function proxy(request: NextRequest): Response {
  const id = requestId(request.headers.get(REQUEST_ID_HEADER));
  const url = new URL(request.url);
  const merchant = url.pathname === MERCHANT_API || url.pathname.startsWith(MERCHANT_API + "/");
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, id);
  const stamped = (res: Response) => {
    res.headers.set(REQUEST_ID_HEADER, id);
    return res;
  };
  const problem = requestProblem(request);
  if (problem && !merchant) {
    // A browser asking for a page gets a page; files, exports and the APIs their own shapes.
    const page = surfaceOf(url.pathname) === "page" && wantsHtml(request.headers.get("accept"));
    return stamped(page ? edgePage(problem.status, problem.message) : edgeError(url.pathname, problem.status, problem.message));
  }
  const outage = outagePage(request.method, url.pathname);
  if (outage) return stamped(outage);
  if (problem) return stamped(NextResponse.rewrite(new URL(edgeRefusalUrl(rawPathAndQuery(request.url)), url), { request: { headers } }));
  return stamped(NextResponse.next({ request: { headers } }));
}

export const config = {
  // Static files are served as they are, and the operator's imports: their bodies (up to 20 MB, behind the admin
  // token) are read by their routes, which cap them, and are not buffered here. The two APIs' paths of plain
  // characters (letters, digits, `_ . ~ -`) do not pass here either: running a proxy at all costs a request about a
  // sixth of a bare route's throughput, so their routes check what the proxy checks themselves (the path and query,
  // the body's declared length) and give the request its id, as every route does (lib/platform/http/guarded-route.ts).
  // A path with anything else (an escape, a space) passes here, where Next.js has not yet tried to decode it.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/admin/catalog/import|api/admin/stock/import|(?:api/v2|x402)(?:/[\\w.~-]+)*/?$).*)"],
};

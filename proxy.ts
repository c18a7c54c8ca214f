import { NextResponse, type NextRequest } from "next/server";
import { edgeError, MAX_BODY_BYTES, REQUEST_ID_HEADER, requestId, urlProblem } from "@/lib/http/edge-guard";
import {
  allowedMethods,
  EDGE_REFUSAL_HEADER,
  EDGE_REFUSAL_MESSAGE_HEADER,
  EDGE_REFUSAL_PATH,
  METHOD_NOT_ALLOWED_PREFIX,
  methodAllowed,
} from "@/lib/http/merchant/methods";

const MERCHANT_API = "/api/v2";

/**
 * The edge of every request, before routing: a path or query that is not valid UTF-8 or holds a NUL byte is refused
 * with a 400 in the shape of the API it was meant for, and a body declared larger than MAX_BODY_BYTES with a 413
 * before it is read (a body sent without a length is cut at the same size by the readers in lib/http/body.ts). Every
 * request gets an id (X-Request-Id, the caller's when it sent a sane one): the handlers' logs carry it, and so does
 * the answer.
 *
 * Under /api/v2 those refusals, and methods that a path does not take, are answered by the API's catch-all route
 * (app/api/v2/[[...path]]), which counts them against the client's address and adds the limit's fields, as on every
 * answer of the merchant API.
 */
export function proxy(request: NextRequest): Response {
  const id = requestId(request.headers.get(REQUEST_ID_HEADER));
  const url = new URL(request.url);
  const merchant = url.pathname === MERCHANT_API || url.pathname.startsWith(MERCHANT_API + "/");
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, id);
  // Only this proxy says that a request was refused at the edge.
  headers.delete(EDGE_REFUSAL_HEADER);
  headers.delete(EDGE_REFUSAL_MESSAGE_HEADER);
  const stamped = (res: Response) => {
    res.headers.set(REQUEST_ID_HEADER, id);
    return res;
  };
  const rewrite = (path: string) => stamped(NextResponse.rewrite(new URL(path, url), { request: { headers } }));
  const refuse = (status: 400 | 413, message: string) => {
    if (!merchant) return stamped(edgeError(url.pathname, status, message));
    headers.set(EDGE_REFUSAL_HEADER, `${status} ${url.pathname}`);
    headers.set(EDGE_REFUSAL_MESSAGE_HEADER, encodeURIComponent(message));
    return rewrite(MERCHANT_API + EDGE_REFUSAL_PATH);
  };

  const problem = urlProblem(url.pathname + url.search);
  if (problem) return refuse(400, problem);
  const length = request.headers.get("content-length");
  if (length !== null && (!/^\d+$/.test(length) || Number(length) > MAX_BODY_BYTES)) {
    return refuse(413, `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
  }
  if (merchant && wrongMethod(url, request.method)) {
    return rewrite(MERCHANT_API + METHOD_NOT_ALLOWED_PREFIX + url.pathname.slice(MERCHANT_API.length) + url.search);
  }
  return stamped(NextResponse.next({ request: { headers } }));
}

/**
 * A merchant API path with a method it does not take: Next.js would answer a bare 405; the API's catch-all route
 * answers it in the API's shape instead, with `Allow` and the limit's fields.
 */
function wrongMethod(url: URL, method: string): boolean {
  if (!url.pathname.startsWith(MERCHANT_API + "/")) return false;
  const allowed = allowedMethods(url.pathname.slice(MERCHANT_API.length));
  return allowed.length > 0 && !methodAllowed(method, allowed);
}

export const config = {
  // Static files are served as they are; everything else passes here, but the operator's imports: their bodies (up to
  // 20 MB, behind the admin token) are read by their routes, which cap them, and are not buffered here.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/admin/catalog/import|api/admin/stock/import).*)"],
};

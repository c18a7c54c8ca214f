import { NextResponse, type NextRequest } from "next/server";
import { edgeError, MAX_BODY_BYTES, urlProblem } from "@/lib/http/edge-guard";

/**
 * The edge of every request, before routing: a path or query that is not valid UTF-8 or holds a NUL byte is refused
 * with a 400 in the shape of the API it was meant for, and a body declared larger than MAX_BODY_BYTES with a 413
 * before it is read (a body sent without a length is cut at the same size by the readers in lib/http/body.ts).
 */
export function proxy(request: NextRequest): Response {
  const url = new URL(request.url);
  const problem = urlProblem(url.pathname + url.search);
  if (problem) return edgeError(url.pathname, 400, problem);
  const length = request.headers.get("content-length");
  if (length !== null && (!/^\d+$/.test(length) || Number(length) > MAX_BODY_BYTES)) {
    return edgeError(url.pathname, 413, `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
  }
  return NextResponse.next();
}

export const config = {
  // Static files are served as they are; everything else passes here.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};

/**
 * What every request must be before any handler sees it: a path and query in valid UTF-8 without NUL bytes, and a
 * body of at most MAX_BODY_BYTES. Text that breaks these rules would reach PostgreSQL (which refuses NUL and invalid
 * UTF-8 with an error, a 500) or a decoder that throws: it is refused here with a 400 (413 for a body too large).
 */

/** The header that carries each request's id: the caller's own when it is a plain token, else one made at the edge. */
export const REQUEST_ID_HEADER = "x-request-id";

/** A caller's request id, kept when it is a short printable token (a proxy's or a client's), else a new one. */
export function requestId(given: string | null): string {
  return given && /^[A-Za-z0-9._:-]{8,128}$/.test(given) ? given : crypto.randomUUID();
}

/** The largest request body the shop reads (every body it takes is a small JSON object). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Decodes UTF-8 and throws on anything that is not (the shop reads no other text). */
export const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Why a text is not acceptable, or undefined when it is: NUL, C0 controls other than tab/newline, lone surrogates. */
export function textProblem(s: string): string | undefined {
  if (s.includes("\u0000")) return "contains a NUL byte";
  if (!s.isWellFormed()) return "is not valid Unicode (a lone surrogate)";
  return undefined;
}

/**
 * Decodes a percent-encoded URL part strictly: every `%` must start a two-digit escape, and the bytes must be valid
 * UTF-8 without NUL. Returns the problem, or undefined.
 */
export function percentProblem(part: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(part)) return "has a % that does not start an escape like %20";
  const bytes: number[] = [];
  for (let i = 0; i < part.length; i++) {
    const ch = part.charCodeAt(i);
    if (ch === 0x25) {
      bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (ch < 0x80) bytes.push(ch);
    else return "has characters that are not percent-encoded";
  }
  let text: string;
  try {
    text = strictUtf8.decode(new Uint8Array(bytes));
  } catch {
    return "is not valid UTF-8";
  }
  return textProblem(text);
}

/** The problem with a request's raw path and query (`/a/b?c=d`), or undefined. */
export function urlProblem(pathAndQuery: string): string | undefined {
  const pathname = pathOf(pathAndQuery);
  const query = pathAndQuery.slice(pathname.length + 1);
  const p = percentProblem(pathname);
  if (p) return `The path ${p}.`;
  // `+` is a space in a query: it does not change whether the text is valid.
  const qp = percentProblem(query);
  if (qp) return `The query string ${qp}.`;
  return undefined;
}

/** What the edge refuses in a request: a path or query that breaks the rules above (400), a body declared too large (413). */
export type RequestProblem = { status: 400 | 413; message: string };

/**
 * The problem with a request as it arrives (its raw path and query, and its declared Content-Length), or undefined.
 * The proxy asks it of every request it sees, and every route of its own request (guarded-route.ts, with the route's
 * `maxBody` where it takes larger bodies); the merchant API's refusal route asks it of the path and query the proxy
 * refused (`pathAndQuery`), with the request's own length.
 */
export function requestProblem(
  req: Request,
  { pathAndQuery = rawPathAndQuery(req.url), maxBody = MAX_BODY_BYTES }: { pathAndQuery?: string; maxBody?: number } = {},
): RequestProblem | undefined {
  const problem = urlProblem(pathAndQuery);
  if (problem) return { status: 400, message: problem };
  const length = req.headers.get("content-length");
  if (length !== null && (!/^\d+$/.test(length) || Number(length) > maxBody)) {
    return { status: 413, message: `The request body is larger than ${sizeText(maxBody)}.` };
  }
  return undefined;
}

/** A size in bytes as the refusals say it: `64 KB`, `20 MB`. */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/** A URL's path and query as they came (`/a/b?c=d`: the URL parser keeps percent escapes as they are). */
export function rawPathAndQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** The path of a raw path and query (`/a/b?c=d` -> `/a/b`). */
export function pathOf(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf("?");
  return q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
}

/** Which API answers a path, for the shape of its errors. */
export type Surface = "merchant" | "x402" | "admin" | "api" | "page";

export function surfaceOf(pathname: string): Surface {
  if (pathname === "/api/v2" || pathname.startsWith("/api/v2/")) return "merchant";
  if (pathname.startsWith("/api/admin/")) return "admin";
  if (pathname.startsWith("/x402/") || pathname === "/x402") return "x402";
  if (pathname.startsWith("/api/")) return "api";
  return "page";
}

/**
 * An error in the shape of the API at `pathname`: the merchant API's envelope (`error_code`, `meta._endpoint`), the
 * /x402 API's `{code, message}`, the operator API's `{error_code, message}`, or plain text for pages.
 */
export function edgeError(pathname: string, status: 400 | 401 | 413, message: string): Response {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8" } });
  const surface = surfaceOf(pathname);
  const merchantCode = status === 413 ? "payload_too_large" : status === 401 ? "unauthorized" : "invalid_param";
  // The endpoint is echoed only when it is itself printable: a broken path is not repeated back.
  const endpoint = urlProblem(pathname) ? undefined : pathname.slice("/api/v2".length) || "/";
  switch (surface) {
    case "merchant":
      return json({ meta: { _endpoint: endpoint ?? null }, error_code: merchantCode, message });
    case "admin":
    case "api":
      return json({ error_code: status === 413 ? "payload_too_large" : "invalid_param", message });
    case "x402":
      return json({ code: status === 413 ? "PAYLOAD_TOO_LARGE" : "INVALID_PARAMETER", message });
    case "page":
      return new Response(`${status === 413 ? "Payload Too Large" : "Bad Request"}: ${message}\n`, {
        status,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A browser's page request refused at the edge (a path or query that is not valid UTF-8 or holds a NUL byte, a body
 * too large): a small page of its own in the shop's colours, with a search and the way home, instead of plain text.
 * The proxy answers it before any page renders, so it carries its own style.
 */
export function edgePage(status: 400 | 401 | 413, message: string): Response {
  const title = status === 413 ? "That request is too large" : "This address cannot be read";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · x402 Storefront</title>
<style>
body{font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;margin:0}
header{background:#fff;border-bottom:1px solid #e2e8f0;padding:1rem}
header a{color:#0f172a;font-weight:700;text-decoration:none}
main{max-width:36rem;margin:4rem auto;padding:0 1rem;text-align:center}
p{color:#334155}
form{display:flex;gap:.5rem;justify-content:center;margin:1.5rem 0}
input{flex:1;max-width:20rem;padding:.6rem .8rem;border:1px solid #94a3b8;border-radius:.75rem;font:inherit}
button{padding:.6rem 1rem;border:0;border-radius:.75rem;background:#184f8c;color:#fff;font:inherit;font-weight:600}
a.home{color:#184f8c;font-weight:600}
:focus-visible{outline:3px solid #184f8c;outline-offset:2px}
</style>
</head>
<body>
<header><a href="/">x402 Storefront</a></header>
<main id="main">
<h1>${title}</h1>
<p>${escapeHtml(message)} Check the link, or search the shop.</p>
<form action="/search" method="get" role="search"><label for="edge-search" style="position:absolute;left:-9999px">Search the shop</label><input id="edge-search" name="q" type="search" placeholder="Search gift cards, eSIMs, top-ups"><button type="submit">Search</button></form>
<a class="home" href="/">Go to the shop</a>
</main>
</body>
</html>
`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

/** Whether a request is a browser's asking for a page (it accepts HTML), for the edge's refusals of page paths. */
export function wantsHtml(accept: string | null): boolean {
  return accept !== null && /\btext\/html\b/.test(accept);
}

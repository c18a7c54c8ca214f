import { inDatabaseOutage, OUTAGE_HOLD_S } from "@/lib/platform/db/outage";

/** Paths that are no page: the APIs answer an outage in their own shapes (lib/platform/http/unavailable.ts), files need no database. */
const NOT_A_PAGE = /^\/(api|x402|mcp|img|_next|\.well-known)(\/|$)|^\/(llms\.txt|favicon\.ico|icon\.svg)$/;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${OUTAGE_HOLD_S}">
<title>Briefly unavailable · x402 Storefront</title>
<style>body{font-family:system-ui,sans-serif;color:#0f172a;max-width:36rem;margin:6rem auto;padding:0 1rem;text-align:center}</style>
</head>
<body>
<main id="main">
<h1>The shop is briefly unavailable</h1>
<p>It will be back in a few seconds: this page tries again by itself. Nothing you paid for is lost.</p>
</main>
</body>
</html>
`;

/**
 * The answer to a page request while the database was found unreachable a moment ago (lib/platform/db/outage.ts): a 503 with
 * Retry-After and a page that says the shop is briefly unavailable and reloads itself, instead of a render that would
 * fail. Undefined when the request should go on.
 */
export function outagePage(method: string, pathname: string): Response | undefined {
  if ((method !== "GET" && method !== "HEAD") || NOT_A_PAGE.test(pathname) || !inDatabaseOutage()) return undefined;
  return new Response(method === "HEAD" ? null : PAGE, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(OUTAGE_HOLD_S), "Cache-Control": "no-store" },
  });
}

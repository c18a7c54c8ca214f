import { merchantFallback } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

// Every path under /api/v2 that no route takes: a JSON 404 with the rate limit's fields, never the shop's HTML page.
// (A method a route does not take gets the same fallback from that route's own file: a 405.)
export const GET = merchantFallback;
export const POST = merchantFallback;
export const PUT = merchantFallback;
export const PATCH = merchantFallback;
export const DELETE = merchantFallback;
export const OPTIONS = merchantFallback;

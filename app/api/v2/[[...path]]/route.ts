import { merchantFallback } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

// Every path under /api/v2 that no route takes, and (sent here by the proxy) every method a route does not take:
// a JSON 404 or 405 with the rate limit's fields, never the shop's HTML page.
export const GET = merchantFallback;
export const POST = merchantFallback;
export const PUT = merchantFallback;
export const PATCH = merchantFallback;
export const DELETE = merchantFallback;
export const OPTIONS = merchantFallback;

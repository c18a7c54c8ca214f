import { merchantFallback } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

// Where proxy.ts sends the requests under /api/v2 that it refuses before routing (a broken path: 400; a body too
// large: 413), so that they are counted and carry the limit's fields. A static route: the broken path is never parsed
// as a parameter. Without the proxy's header, this is a path like any other that no route takes: a 404.
export const GET = merchantFallback;
export const POST = merchantFallback;
export const PUT = merchantFallback;
export const PATCH = merchantFallback;
export const DELETE = merchantFallback;
export const OPTIONS = merchantFallback;

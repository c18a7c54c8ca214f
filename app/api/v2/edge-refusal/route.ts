import { merchantRefusalRoute } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

// Where proxy.ts sends the requests under /api/v2 that it refuses before routing (a broken path: 400; a body too
// large: 413), so that they are counted and carry the limit's fields: `?url=` names the refused path and query, which
// the route checks again (lib/api/merchant/route.ts). A static route: the broken path is never parsed as a parameter.
// A `url` without a problem, or none, is a path like any other that no route takes: a 404.
export const GET = merchantRefusalRoute;
export const POST = merchantRefusalRoute;
export const PUT = merchantRefusalRoute;
export const PATCH = merchantRefusalRoute;
export const DELETE = merchantRefusalRoute;
export const OPTIONS = merchantRefusalRoute;

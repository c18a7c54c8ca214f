import { createBatchHandler, listBatchesHandler } from "@/lib/gift-cards/merchant-api/batches";
import { merchantRoute } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

/** The merchant's gift card batches, newest first (no codes). */
export const GET = merchantRoute("GET /gift-card-batches", listBatchesHandler);
/** A batch of the shop's own gift cards, paid from the balance. */
export const POST = merchantRoute("POST /gift-card-batches", createBatchHandler);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export { merchantFallback as PUT, merchantFallback as PATCH, merchantFallback as DELETE, merchantFallback as OPTIONS } from "@/lib/api/merchant/route";

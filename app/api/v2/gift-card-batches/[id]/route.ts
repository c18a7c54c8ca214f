import { getBatchHandler } from "@/lib/gift-cards/merchant-api/batches";
import { merchantRoute } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

/** One batch with its cards and their codes (its merchant only). */
export const GET = merchantRoute("GET /gift-card-batches/{id}", getBatchHandler);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

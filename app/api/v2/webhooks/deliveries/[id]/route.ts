import { merchantRoute } from "@/lib/api/merchant/route";
import { getDeliveryHandler } from "@/lib/webhooks/merchant-api/deliveries";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /webhooks/deliveries/{id}", getDeliveryHandler);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

import { merchantRoute } from "@/lib/api/merchant/route";
import { redeliverHandler } from "@/lib/webhooks/merchant-api/deliveries";

export const dynamic = "force-dynamic";

export const POST = merchantRoute("POST /webhooks/deliveries/{id}/redeliver", redeliverHandler);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as GET,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";

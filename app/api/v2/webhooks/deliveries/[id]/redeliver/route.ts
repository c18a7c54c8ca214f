import { merchantRoute } from "@/lib/http/merchant/route";
import { redeliverHandler } from "@/lib/http/merchant/webhook-handlers";

export const dynamic = "force-dynamic";

export const POST = merchantRoute("POST /webhooks/deliveries/{id}/redeliver", redeliverHandler);

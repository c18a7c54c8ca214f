import { merchantRoute } from "@/lib/http/merchant/route";
import { getDeliveryHandler } from "@/lib/http/merchant/webhook-handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /webhooks/deliveries/{id}", getDeliveryHandler);

import { merchantRoute } from "@/lib/api-v2/route";
import { getDeliveryHandler } from "@/lib/merchant-invoices/webhook-handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /webhooks/deliveries/{id}", getDeliveryHandler);

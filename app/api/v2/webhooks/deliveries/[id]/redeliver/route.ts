import { merchantRoute } from "@/lib/api-v2/route";
import { redeliverHandler } from "@/lib/merchant-invoices/webhook-handlers";

export const dynamic = "force-dynamic";

export const POST = merchantRoute("POST /webhooks/deliveries/{id}/redeliver", redeliverHandler);
